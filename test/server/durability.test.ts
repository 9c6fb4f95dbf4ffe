import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dataFileSchema } from '../../src/server/data-file/data-file-schema.js'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

afterAll(() => killAllChildren())

const AUTH = { authorization: 'Bearer sandbox-enterprise' }

const allPetIds = async (origin: string): Promise<number[]> => {
  const ids: number[] = []
  let next: string | undefined = `${origin}/v1/pets?limit=100`
  while (next !== undefined) {
    const response: Response = await fetch(next, { headers: AUTH })
    expect(response.status).toBe(200)
    ids.push(...((await response.json()) as { id: number }[]).map((p) => p.id))
    next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1]
  }
  return ids
}

describe('the data file', () => {
  it('keeps every pet that got a 201 when the server is SIGKILLed during a burst of creates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-durable-'))
    const file = join(dir, 'pets.json')
    const first = spawnCli(['--port', '0', '--quiet', '--data', file])
    const origin = await serverOrigin(first)

    const acknowledged: number[] = []
    let killed = false
    const create = async (n: number): Promise<void> => {
      try {
        const response = await fetch(`${origin}/v1/pets`, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Burst ${n}`, categoryId: 1 }),
        })
        if (response.status === 201)
          acknowledged.push(((await response.json()) as { id: number }).id)
      } catch {
        // The server died under this request: it was never acknowledged.
      }
      if (!killed && acknowledged.length >= 40) {
        killed = true
        first.child.kill('SIGKILL')
      }
    }
    // 16 concurrent clients, bounded at 400 creates in all.
    let next = 0
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 400 && !(killed && first.child.exitCode !== null)) await create(next++)
      }),
    )
    expect(await first.exited).toBe('SIGKILL')
    expect(acknowledged.length).toBeGreaterThanOrEqual(40)
    expect(acknowledged.length).toBeLessThan(400)

    const onDisk = dataFileSchema().parse(JSON.parse(readFileSync(file, 'utf8')))
    const second = spawnCli(['--port', '0', '--quiet', '--data', file])
    const ids = new Set(await allPetIds(await serverOrigin(second)))
    for (const id of acknowledged) expect(ids.has(id), `pet ${id} got a 201`).toBe(true)
    expect(ids.size).toBe(onDisk.pets.length)
    // A temporary file the SIGKILL cut short may remain; the data file itself is whole.
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    expect(readdirSync(dir).filter((f) => !f.endsWith('.tmp'))).toEqual(['pets.json'])
  }, 60_000)

  it('creates the file from the seeded pets, keeps ids across restarts, and rewrites it with the seeded pets on reset', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-data-')), 'pets.json')
    const first = spawnCli(['--port', '0', '--quiet', '--pets', '3', '--data', file])
    const origin = await serverOrigin(first)
    expect(dataFileSchema().parse(JSON.parse(readFileSync(file, 'utf8'))).pets).toHaveLength(3)
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept', categoryId: 9 }),
    })
    expect(created.status).toBe(201)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)

    const second = spawnCli(['--port', '0', '--quiet', '--pets', '3', '--data', file])
    const origin2 = await serverOrigin(second)
    expect(await allPetIds(origin2)).toEqual([1, 2, 3, 4])
    const another = await fetch(`${origin2}/v1/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Next', categoryId: 1 }),
    })
    expect(((await another.json()) as { id: number }).id).toBe(5)

    expect((await fetch(`${origin2}/__sandbox/reset`, { method: 'POST' })).status).toBe(204)
    const afterReset = dataFileSchema().parse(JSON.parse(readFileSync(file, 'utf8')))
    expect(afterReset.pets.map((p) => p.id)).toEqual([1, 2, 3])
    expect(await allPetIds(origin2)).toEqual([1, 2, 3])
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 60_000)
})
