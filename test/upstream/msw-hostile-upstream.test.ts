import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type NodeSandbox, type NodeSandboxOptions, setupSandbox } from '../../src/runtimes/node.js'
import { killAllChildren } from '../server/spawn-cli.js'
import { startHostileUpstream, type UpstreamProcess } from '../support/upstream-processes.js'

// Issue 31 items 1, 2 and 4 under MSW (setupServer): fetch forwards, decoding the body itself;
// the hostile deployment is a process of its own.
const API = 'https://api.petstore.test/v1'
const FREE = { authorization: 'Bearer sandbox-free' }
let hostile: UpstreamProcess
let sandbox: NodeSandbox | undefined
let dir: string

const start = (options: NodeSandboxOptions): NodeSandbox => {
  sandbox?.close()
  sandbox = setupSandbox({ baseUrl: API, onUnhandledRequest: 'bypass', ...options })
  sandbox.listen()
  return sandbox
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-msw-hostile-'))
  hostile = await startHostileUpstream()
}, 60_000)
afterEach(() => {
  sandbox?.close()
  sandbox = undefined
})
afterAll(async () => {
  await hostile?.stop()
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

const errorOf = async (
  path: string,
): Promise<{ status: number; code: string; message: string }> => {
  const response = await fetch(`${API}${path}`, { headers: FREE })
  const body = (await response.json()) as { code: string; message: string }
  return { status: response.status, code: body.code, message: body.message }
}

describe('MSW in front of a hostile upstream', () => {
  it.each([['gzip-bomb'], ['deflate-bomb'], ['br-bomb']])(
    'refuses a %s once its decoded body passes the limit, with bounded memory',
    async (name) => {
      start({ upstream: { url: hostile.url } })
      const before = process.memoryUsage().rss
      const refused = await errorOf(`/hostile/${name}`)
      expect(refused).toMatchObject({ status: 502, code: 'upstream_unavailable' })
      expect(refused.message).toContain('larger than 10485760 bytes once decompressed')
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024)
    },
  )

  it('stops an endless body at a settable limit, and a dripping one at the timeout', async () => {
    start({ upstream: { url: hostile.url, maxBodyBytes: 65_536, timeoutMs: 400 } })
    const endless = await errorOf('/hostile/endless')
    expect(endless).toMatchObject({ status: 502, code: 'upstream_unavailable' })
    expect(endless.message).toContain('larger than 65536 bytes, the limit')
    expect(await errorOf('/hostile/drip')).toMatchObject({ status: 504, code: 'upstream_timeout' })
  })

  it('records to a file as it goes and redacts an echoed upstream key everywhere it stores', async () => {
    const key = 'msw-staging-secret-987654321'
    const file = join(dir, 'msw.har')
    const s = start({ upstream: { url: hostile.url, key, record: file } })
    const response = await fetch(`${API}/hostile/echo-key`, { headers: FREE })
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    const recorded = readFileSync(file, 'utf8')
    expect(JSON.parse(recorded).log.entries).toHaveLength(1)
    expect(recorded).not.toContain(key)
    expect(JSON.stringify(await s.journal.list())).not.toContain(key)
    expect(recorded).toContain('msw-…(redacted)')
  })
})
