import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllChildren } from '../server/spawn-cli.js'
import { startHostileUpstream, type UpstreamProcess } from '../support/upstream-processes.js'
import { FREE, type Front, startFront } from './upstream-front.js'

// Issue 31 item 1 on the standalone server: a real hostile deployment in a process of its
// own (test/support/hostile-upstream.mjs), the sandbox in this process in front of it.
let hostile: UpstreamProcess
const fronts: Front[] = []
const front = async (options: Parameters<typeof startFront>[0]): Promise<Front> => {
  const started = await startFront(options)
  fronts.push(started)
  return started
}

beforeAll(async () => {
  hostile = await startHostileUpstream()
}, 60_000)

afterAll(async () => {
  await Promise.all(fronts.map((f) => f.close()))
  await hostile?.stop()
  killAllChildren()
})

interface ErrorBody {
  code: string
  message: string
  status: number
  details?: { field: string; message: string }[]
}

const errorOf = async (response: Response): Promise<ErrorBody> => (await response.json()) as never

/** The longest a control API call took while `work` ran, polled one after another. */
const controlLatencyDuring = async (f: Front, work: Promise<unknown>): Promise<number> => {
  let done = false
  void work.finally(() => {
    done = true
  })
  let longest = 0
  while (!done) {
    const started = performance.now()
    const answer = await fetch(`${f.origin}/__sandbox/mode`)
    await answer.arrayBuffer()
    longest = Math.max(longest, performance.now() - started)
  }
  return longest
}

describe('the server in front of a hostile upstream', () => {
  it.each([['gzip-bomb'], ['deflate-bomb'], ['br-bomb']])(
    'refuses a %s past the body limit once inflated, control API responsive meanwhile',
    async (name) => {
      const f = await front({ upstream: hostile.url })
      const rssBefore = process.memoryUsage().rss
      const pending = f.get(`/v1/hostile/${name}`)
      const longest = await controlLatencyDuring(f, pending)
      const response = await pending
      const body = await errorOf(response)
      expect(response.status).toBe(502)
      expect(body.code).toBe('upstream_unavailable')
      expect(body.message).toContain('larger than 10485760 bytes once decompressed')
      expect(body.message).toContain('--upstream-max-body')
      expect(body.details).toEqual([
        { field: 'upstream.maxBodyBytes', message: 'at most 10485760 bytes' },
      ])
      // Inflated whole (the old gunzipSync), a gigabyte: here at most a few limits' worth.
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024)
      // Synchronous inflation stalled the control API for 11-20 s (issue 31); a loaded
      // 2-core machine alone makes a control call take up to about a second.
      expect(longest).toBeLessThan(3_000)
      const [entry] = await f.journal()
      expect(entry?.status).toBe(502)
    },
  )

  it('stops an endless body at the limit, which is settable', async () => {
    const f = await front({ upstream: { url: hostile.url, maxBodyBytes: 65_536 } })
    const response = await f.get('/v1/hostile/endless')
    const body = await errorOf(response)
    expect(response.status).toBe(502)
    expect(body.message).toMatch(/answered a body larger than 65536 bytes, the limit/)
    // Under the limit, the answer passes.
    const small = await f.get('/v1/hostile/sized?bytes=60000')
    expect(small.status).toBe(200)
    expect((await small.text()).length).toBeGreaterThan(59_000)
    const big = await f.get('/v1/hostile/sized?bytes=70000')
    expect(big.status).toBe(502)
    await big.arrayBuffer()
  })

  it('ends a dripping body at the upstream timeout with 504, the body included in the timeout', async () => {
    const f = await front({ upstream: { url: hostile.url, timeoutMs: 400 } })
    const response = await f.get('/v1/hostile/drip')
    const body = await errorOf(response)
    expect(response.status).toBe(504)
    expect(body.code).toBe('upstream_timeout')
    const hung = await f.get('/v1/hostile/long-length-hang')
    expect(hung.status).toBe(504)
    await hung.arrayBuffer()
  })

  it('answers 502 for a body shorter than its Content-Length, and a longer one does not poison the connection', async () => {
    const f = await front({ upstream: hostile.url })
    const short = await f.get('/v1/hostile/long-length')
    expect(short.status).toBe(502)
    expect((await errorOf(short)).message).toContain('broke off')
    // The bytes after the Content-Length are not the next answer.
    for (let i = 0; i < 3; i++) {
      const lied = await f.get('/v1/hostile/short-length')
      expect(lied.status).toBe(200)
      expect(await lied.text()).toBe('[]')
      const next = await f.get('/v1/hostile/sized?bytes=100')
      expect(next.status).toBe(200)
      expect((await next.json()) as unknown[]).toBeInstanceOf(Array)
    }
  })

  it.each([['status-1000'], ['status-99'], ['bad-header-name']])(
    'answers 502 upstream_unavailable for an invalid head (%s)',
    async (name) => {
      const f = await front({ upstream: hostile.url })
      const response = await f.get(`/v1/hostile/${name}`)
      expect(response.status).toBe(502)
      expect((await errorOf(response)).code).toBe('upstream_unavailable')
    },
  )

  it('passes a header value read as Latin-1 on as received', async () => {
    const f = await front({ upstream: hostile.url })
    const response = await f.get('/v1/hostile/latin1-header')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-name')).toBe('caf\u00c3\u00a9')
    await response.arrayBuffer()
  })

  it('keeps answering API requests with the caller key while nothing hostile happens', async () => {
    const f = await front({ upstream: hostile.url })
    const response = await f.get('/v1/hostile/sized?bytes=10', FREE)
    expect(response.status).toBe(200)
    await response.arrayBuffer()
  })
})
