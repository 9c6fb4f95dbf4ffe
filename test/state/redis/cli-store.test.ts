import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from '../../server/spawn-cli.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => {
  killAllChildren()
  await redis?.dispose()
})

describe('petstore-sandbox --store', () => {
  it('exits 1 with a clear message when Redis cannot be reached at start', async () => {
    const run = spawnCli(['--port', '0', '--store', `redis://127.0.0.1:${redis.port + 1}/0`])
    expect(await run.exited).toBe(1)
    expect(run.stderr()).toMatch(
      /petstore-sandbox: Failed to start: the Redis store redis:\/\/127\.0\.0\.1:\d+\/0 cannot be reached .*Start Redis or fix --store\./,
    )
  })

  it('exits 2 for a store that is not a Redis URL, from the flag or PETSTORE_SANDBOX_STORE', async () => {
    const flag = spawnCli(['--store', 'http://127.0.0.1:6379'])
    expect(await flag.exited).toBe(2)
    expect(flag.stderr()).toContain('Failed to read --store')
    const env = spawnCli([], { PETSTORE_SANDBOX_STORE: 'localhost:6379' })
    expect(await env.exited).toBe(2)
    expect(env.stderr()).toContain('PETSTORE_SANDBOX_STORE')
  })

  it('two processes started with PETSTORE_SANDBOX_STORE answer as one sandbox, and stop with exit 0', async () => {
    const env = { PETSTORE_SANDBOX_STORE: redis.url }
    const first = spawnCli(['--port', '0', '--quiet', '--store-prefix', 'cli-test:'], env)
    const second = spawnCli(['--port', '0', '--quiet', '--store-prefix', 'cli-test:'], env)
    const [a, b] = await Promise.all([serverOrigin(first), serverOrigin(second)])
    expect(first.stdout()).toContain(`Store:    ${redis.url} (shared state)`)
    const created = await fetch(`${a}/v1/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-pro', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shared', categoryId: 1 }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const fetched = await fetch(`${b}/v1/pets/${id}`, {
      headers: { authorization: 'Bearer sandbox-pro' },
    })
    expect(fetched.status).toBe(200)
    expect(await fetched.json()).toMatchObject({ id, name: 'Shared' })
    first.child.kill('SIGTERM')
    second.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(await second.exited).toBe(0)
  })

  it('two processes started with --openapi and --store share the document’s records', async () => {
    const args = ['--port', '0', '--quiet', '--store', redis.url, '--store-prefix', 'cli-openapi:']
    const document = ['--openapi', 'examples/openapi/petstore-extras.yaml']
    const first = spawnCli([...args, ...document])
    const second = spawnCli([...args, ...document])
    const [a, b] = await Promise.all([serverOrigin(first), serverOrigin(second)])
    const created = await fetch(`${a}/v1/categories`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-pro', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the CLI' }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const fetched = await fetch(`${b}/v1/categories/${id}`, {
      headers: { authorization: 'Bearer sandbox-pro' },
    })
    expect([fetched.status, ((await fetched.json()) as { name: string }).name]).toEqual([
      200,
      'From the CLI',
    ])
    first.child.kill('SIGTERM')
    second.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(await second.exited).toBe(0)
  })
})
