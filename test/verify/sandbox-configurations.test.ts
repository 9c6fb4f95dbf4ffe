import { afterAll, describe, expect, it } from 'vitest'
import type { FidelitySettings } from '../../src/contract/fidelity.js'
import { createSandboxServer, type SandboxServer, verify } from '../../src/server/index.js'
import type { SandboxServerOptions } from '../../src/server/server-options.js'

const apps: SandboxServer[] = []
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
})

const A: Partial<FidelitySettings> = {
  limitOutOfRange: 'clamp',
  unknownStatusFilter: 'empty',
  defaultStatus: 'sold',
  nameMaxLength: 30,
  unknownFields: 'reject',
  pagination: 'none',
  totalCountHeader: false,
  errorCodes: {
    pet_not_found: 'missing',
    invalid_api_key: 'bad_key',
    validation_failed: 'invalid',
  },
  maxBodyBytes: 2_048,
}
const B: Partial<FidelitySettings> = {
  unknownStatusFilter: 'ignore',
  defaultStatus: 'pending',
  nameMaxLength: 10_000,
  pagination: 'offset',
  totalCountHeader: 'X-Pet-Count',
  maxBodyBytes: 1_048_576,
}

const CONFIGURATIONS: Array<[string, SandboxServerOptions, string]> = [
  ['the defaults', {}, '/v1'],
  ['every gap otherwise (A)', A, '/v1'],
  ['every gap otherwise (B)', B, '/v1'],
  ['no pets, another base path', { pets: 0, baseUrl: '/api/v1' }, '/api/v1'],
  [
    'a key of the team’s own, with a custom quota',
    { keys: { team: { plan: 'enterprise', perMinute: 500 } } },
    '/v1',
  ],
]

describe('verify against the sandbox’s own server in its configurations', () => {
  it.each(CONFIGURATIONS)(
    'passes every spec check, and every gap it sees is the setting (%s)',
    async (_name, options, basePath) => {
      const app = createSandboxServer(options)
      apps.push(app)
      const { url } = await app.listen(0, '127.0.0.1')
      const target = `${url}${basePath}`
      const report = await verify({
        target,
        key: options.keys === undefined ? 'sandbox-enterprise' : 'team',
        allowWrites: true,
        sandbox: options as Partial<FidelitySettings>,
        timeoutMs: 5_000,
      })
      const failed = report.checks.filter((c) => !c.pass)
      expect(failed, JSON.stringify(failed, null, 1)).toEqual([])
      expect(report.passed).toBe(true)
      const seen = report.checks.filter((c) => c.kind === 'gap')
      for (const check of seen) {
        const setting = check.id.slice('gap.'.length) as keyof FidelitySettings
        expect(report.config[setting], check.id).toEqual(check.observed)
      }
      expect(seen.length).toBeGreaterThanOrEqual(options.pets === 0 ? 6 : 9)
    },
  )
})
