import { afterAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from '../../test/server/spawn-cli.js'

// The README's server example: ./petstore-sandbox.config.mjs, a team's own
// endpoint, health check and failure mode, started by the CLI as written
// (from source, and as the bundle `bin` runs). Its scenario's ApiError comes
// from the built package's copy: the CLI must recognise it.
const CONFIG = 'examples/readme/petstore-sandbox.config.mjs'
const KEY = { authorization: 'Bearer team-key' }
afterAll(() => killAllChildren())

const create = (origin: string, headers: Record<string, string> = {}, query = '') =>
  fetch(`${origin}/v1/pets${query}`, {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  })

describe.each(['source', 'bundle'] as const)('the README config, CLI from its %s', (entry) => {
  it('serves your endpoint, your health check and your scenario beside the contract', async () => {
    const run = spawnCli(['--config', CONFIG, '--port', '0', '--quiet'], {}, entry)
    const origin = await serverOrigin(run)
    expect(run.stdout()).toMatch(/one of default, .*, flaky, .*, outage, maintenance;/)
    expect(run.stdout()).toContain('team…(redacted)      pro (configured)')

    const categories = await fetch(`${origin}/v1/categories`, { headers: KEY })
    expect([categories.status, await categories.json()]).toEqual([200, [{ id: 1, name: 'Cats' }]])
    expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true })
    expect((await fetch(`${origin}/v1/pets`, { headers: KEY })).status).toBe(200)

    // The scenario, like a built-in one: by flag, by header, sticky through the control API.
    for (const refused of [
      await create(origin, {}, '?__scenario=maintenance'),
      await create(origin, { 'x-sandbox-scenario': 'maintenance' }),
    ]) {
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('60')
      expect(await refused.json()).toMatchObject({ code: 'service_unavailable', status: 503 })
    }
    expect((await create(origin)).status).toBe(201)
    const sticky = await fetch(`${origin}/__sandbox/scenario`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"maintenance"}',
    })
    expect(await sticky.json()).toMatchObject({
      name: 'maintenance',
      scenarios: expect.arrayContaining([
        expect.objectContaining({
          name: 'maintenance',
          description: expect.stringContaining('every create answers 503'),
          key: 'sandbox-scenario-maintenance',
        }),
      ]),
    })
    expect((await create(origin)).status).toBe(503)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  }, 30_000)

  it('takes your scenario as the sticky one from --scenario', async () => {
    const run = spawnCli(
      ['--config', CONFIG, '--port', '0', '--quiet', '--scenario', 'maintenance'],
      {},
      entry,
    )
    const origin = await serverOrigin(run)
    expect(run.stdout()).toContain('Scenario: maintenance')
    expect((await create(origin)).status).toBe(503)
    run.child.kill('SIGTERM')
    await run.exited
  }, 30_000)
})
