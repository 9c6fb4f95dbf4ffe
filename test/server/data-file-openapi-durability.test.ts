import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dataFileSchema } from '../../src/server/data-file/data-file-schema.js'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

afterAll(() => killAllChildren())

// The data file's promise for a document's records (docs/server.md, decision 0067): a record
// whose create was answered is on disk; a SIGKILL in a burst of writes leaves a whole file.
const DOCUMENT = 'examples/openapi/petstore-extras.yaml'
const AUTH = { authorization: 'Bearer sandbox-enterprise' }
const SESSIONS = 12

describe('the data file with an OpenAPI document', () => {
  it('keeps every record whose create was answered when the server is SIGKILLed during a burst of creates in many sessions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-durable-openapi-'))
    const file = join(dir, 'sandbox.json')
    const first = spawnCli(['--port', '0', '--quiet', '--openapi', DOCUMENT, '--data', file])
    const origin = await serverOrigin(first)

    const acknowledged: { session: string; order: Record<string, unknown> }[] = []
    let killed = false
    const create = async (n: number): Promise<void> => {
      const session = `s${n % SESSIONS}`
      try {
        const response = await fetch(`${origin}/v1/store/orders`, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/json', 'x-sandbox-session': session },
          body: JSON.stringify({ petId: (n % 7) + 1, quantity: (n % 5) + 1 }),
        })
        if (response.status === 201)
          acknowledged.push({ session, order: (await response.json()) as Record<string, unknown> })
      } catch {
        // The server died under this request: it was never acknowledged.
      }
      if (!killed && acknowledged.length >= 60) {
        killed = true
        first.child.kill('SIGKILL')
      }
    }
    // 16 concurrent clients, bounded at 600 creates in all.
    let next = 0
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 600 && !(killed && first.child.exitCode !== null)) await create(next++)
      }),
    )
    expect(await first.exited).toBe('SIGKILL')
    expect(acknowledged.length).toBeGreaterThanOrEqual(60)
    expect(acknowledged.length).toBeLessThan(600)

    // The file is whole (it parses and is a data file) and a new server starts from it.
    const text = JSON.parse(readFileSync(file, 'utf8')) as { openapi?: Record<string, unknown> }
    dataFileSchema().parse(text)
    expect(Object.keys(text.openapi ?? {}).length).toBeGreaterThan(1)
    const second = spawnCli(['--port', '0', '--quiet', '--openapi', DOCUMENT, '--data', file])
    const again = await serverOrigin(second)
    for (const { session, order } of acknowledged) {
      const read = await fetch(`${again}/v1/store/orders/${order.id}`, {
        headers: { ...AUTH, 'x-sandbox-session': session },
      })
      expect(read.status, `order ${order.id} of ${session} got a 201`).toBe(200)
      expect(await read.json()).toEqual(order)
    }
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    // A temporary file the SIGKILL cut short may remain; the data file itself is whole.
    expect(readdirSync(dir).filter((f) => !f.endsWith('.tmp'))).toEqual(['sandbox.json'])
  }, 90_000)
})
