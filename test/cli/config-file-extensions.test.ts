import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { loadConfigFile } from '../../src/cli/load-config-file.js'
import { parseConfigFile } from '../../src/cli/parse-config-file.js'
import { ApiError, defineScenario } from '../../src/index.js'

// Issue 21, points 1 and 7: a config file holds your handlers and scenarios;
// every mistake in it is named at once, with the file, the start scenario included.
const maintenance = defineScenario({
  name: 'maintenance',
  description: 'Writes answer 503.',
  respond: () => new ApiError('service_unavailable', 'Read-only.'),
})
const categories = http.get('*/v1/categories', () => HttpResponse.json([]))
const health = (request: Request) =>
  request.url.endsWith('/health') ? Response.json({ ok: true }) : undefined

const messageOf = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  throw new Error('expected a throw')
}

describe('parseConfigFile with handlers and scenarios', () => {
  it('passes your handlers and scenarios on, and takes one of your scenarios as the start one', () => {
    expect(
      parseConfigFile(
        { handlers: [categories, health], scenarios: [maintenance], scenario: 'maintenance' },
        'sandbox.config.mjs',
      ),
    ).toEqual({ handlers: [categories, health], scenarios: [maintenance], scenario: 'maintenance' })
  })

  it.each([
    [{ handlers: ['health'] }, 'handlers.0 must be an MSW handler or a function'],
    [{ handlers: health }, 'handlers must be a list'],
    [{ scenarios: [{ name: 'Bad Name', description: 'x' }] }, 'scenarios.0 ("Bad Name") a name is'],
    [{ scenarios: [{ name: 'quiet' }] }, 'scenarios.0 must be a scenario made with defineScenario'],
    [
      { scenarios: [{ ...maintenance, respond: 'no' }] },
      'scenarios.0 ("maintenance") respond must be a function',
    ],
    [
      { scenarios: [{ ...maintenance, name: 'slow' }] },
      'scenarios.0 is named "slow", which another scenario has',
    ],
    [{ scenarios: [maintenance, maintenance] }, 'scenarios.1 is named "maintenance"'],
    [
      { scenario: 'maintenance' },
      'scenario "maintenance" is not a scenario (use one of default, empty',
    ],
  ])('refuses %j, naming the field', (value, part) => {
    const message = messageOf(() => parseConfigFile(value, 'team.config.mjs'))
    expect(message).toMatch(/^Failed to read the config file team\.config\.mjs: /)
    expect(message).toContain(part)
  })

  it('lists every bad field at once, a bad start scenario included, and names the file', () => {
    const message = messageOf(() =>
      parseConfigFile(
        { port: 70_000, prot: 1, scenarios: [maintenance], scenario: 'maintenence' },
        '/teams/shop/sandbox.config.mjs',
      ),
    )
    expect(message).toMatch(/^Failed to read the config file \/teams\/shop\/sandbox\.config\.mjs: /)
    for (const part of [
      'port must be from 0 to 65535',
      '"prot" is not a setting',
      'scenario "maintenence" is not a scenario (use one of default, empty, paginated, rate-limited, banned, unauthorized, server-error, unavailable, slow, timeout, network-error, sunset, flaky, reset-mid-body, truncated-body, stall-after-headers, slow-body, malformed-json, proxy-error, empty-response, commit-then-drop, outage, maintenance)',
    ])
      expect(message).toContain(part)
    expect(message).toMatch(/Settings: port, .*, handlers, scenarios, /)
  })

  it('says that handlers and scenarios need a module, not JSON', () => {
    expect(messageOf(() => parseConfigFile({ handlers: [] }, 'sandbox.json'))).toContain(
      'handlers need a .js or .mjs config file (functions cannot be written in JSON; run "petstore-sandbox init" for one)',
    )
  })
})

describe('loadConfigFile', () => {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-config-'))
  const write = (name: string, text: string): string => {
    const path = join(folder, name)
    writeFileSync(path, text)
    return path
  }

  it('refuses settings exported by name, which would be ignored', async () => {
    const file = write('named.mjs', 'export const handlers = []\nexport default { port: 0 }\n')
    await expect(loadConfigFile(file)).rejects.toThrow(
      `Failed to load the config file ${file}: it exports "handlers" by name; put every setting in the default export.`,
    )
  })

  it('reads a CommonJS config whose module.exports holds the settings', async () => {
    const file = write('cjs.cjs', 'module.exports = { port: 0, quiet: true }\n')
    expect(await loadConfigFile(file)).toEqual({ port: 0, quiet: true })
  })

  it('says a missing module config does not exist', async () => {
    await expect(loadConfigFile(join(folder, 'missing.mjs'))).rejects.toThrow('it does not exist.')
  })
})
