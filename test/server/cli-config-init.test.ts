import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installPacked } from '../support/install-packed.js'
import { killAllChildren, serverOrigin, spawnNode } from './spawn-cli.js'

// Issue 21, point 1, as a user meets it: the packed package installed in a
// fresh project; `petstore-sandbox init` writes a commented starter config
// that runs as written; TypeScript configs load where Node runs TypeScript
// and say what to do where it does not.
const CLI = 'node_modules/petstore-sandbox/dist/cli/petstore-sandbox.js'
let project: string
beforeAll(() => {
  project = installPacked('petstore-sandbox-init-', ['tsx'])
}, 120_000)
afterAll(() => {
  killAllChildren()
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnNode([CLI, ...args], { cwd: project, env })

const expectStarterServes = async (config: string, env: Record<string, string> = {}) => {
  const server = run(['--config', config, '--port', '0', '--quiet'], env)
  const origin = await serverOrigin(server)
  expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true })
  const categories = await fetch(`${origin}/v1/categories`, {
    headers: { authorization: 'Bearer sandbox-free' },
  })
  expect(await categories.json()).toEqual([{ id: 1, name: 'Cats' }])
  const created = await fetch(`${origin}/v1/pets?__scenario=maintenance`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-free', 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":1}',
  })
  expect([created.status, created.headers.get('retry-after')]).toEqual([503, '60'])
  server.child.kill('SIGTERM')
  expect(await server.exited).toBe(0)
}

describe('petstore-sandbox init', () => {
  it('writes a commented starter config that serves as written', async () => {
    const init = run(['init'])
    expect(await init.exited).toBe(0)
    expect(init.stdout()).toContain('Wrote petstore-sandbox.config.mjs')
    const text = readFileSync(join(project, 'petstore-sandbox.config.mjs'), 'utf8')
    for (const setting of ['port', 'seed', 'keys', 'data', 'sessionTtl', 'store', 'journalSize'])
      expect(text).toMatch(new RegExp(`^  // ${setting}: `, 'm'))
    await expectStarterServes('petstore-sandbox.config.mjs')
  }, 40_000)

  it('never writes over a file, and refuses a JSON name', async () => {
    const again = run(['init'])
    expect(await again.exited).toBe(2)
    expect(again.stderr()).toContain(
      'Failed to write petstore-sandbox.config.mjs: it exists. Edit it, remove it first, or name another file',
    )
    const json = run(['init', 'sandbox.json'])
    expect(await json.exited).toBe(2)
    expect(json.stderr()).toContain('name it .mjs or .js')
    expect(existsSync(join(project, 'sandbox.json'))).toBe(false)
  })
})

describe('a TypeScript config', () => {
  it('is written by init sandbox.config.mts with its one type annotation', async () => {
    const init = run(['init', 'sandbox.config.mts'])
    expect(await init.exited).toBe(0)
    expect(readFileSync(join(project, 'sandbox.config.mts'), 'utf8')).toContain(
      '(request: Request) =>',
    )
  })

  it('loads where Node runs TypeScript, and otherwise names the ways that work', async () => {
    const runsTypeScript = Boolean((process.features as { typescript?: unknown }).typescript)
    if (runsTypeScript) {
      await expectStarterServes('sandbox.config.mts')
      return
    }
    const plain = run(['--config', 'sandbox.config.mts', '--port', '0'])
    expect(await plain.exited).toBe(2)
    expect(plain.stderr()).toContain(
      `Failed to load the config file sandbox.config.mts: this Node (${process.version}) does not run TypeScript. Node 22.18 or later`,
    )
    expect(plain.stderr()).toContain('NODE_OPTIONS="--import tsx"')
  })

  it('loads through tsx on any Node, as the message says', async () => {
    await expectStarterServes('sandbox.config.mts', { NODE_OPTIONS: '--import tsx' })
  }, 40_000)
})
