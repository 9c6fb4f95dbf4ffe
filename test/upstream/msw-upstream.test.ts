import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { NodeSandboxOptions } from '../../src/runtimes/node.js'
import { type NodeSandbox, setupSandbox } from '../../src/runtimes/node.js'
import { killAllChildren } from '../server/spawn-cli.js'
import {
  brokenJournal,
  sandboxJournal,
  startBrokenUpstream,
  startSandboxUpstream,
  type UpstreamEntry,
  type UpstreamProcess,
} from '../support/upstream-processes.js'

// The proof of issue 19 in an MSW runtime (setupServer): the sandbox forwards
// with fetch marked by msw's `bypass`, to upstreams that are processes of their own.
const API = 'https://api.petstore.test/v1'
const FREE = { authorization: 'Bearer sandbox-free' }
let upstream: UpstreamProcess
let broken: UpstreamProcess
let dir: string
let sandbox: NodeSandbox | undefined

const start = (options: NodeSandboxOptions): NodeSandbox => {
  sandbox?.close()
  // The tests read the upstreams' journals over the network: those requests pass.
  sandbox = setupSandbox({ baseUrl: API, onUnhandledRequest: 'bypass', ...options })
  sandbox.listen()
  return sandbox
}
const get = (path: string, headers: Record<string, string> = FREE) =>
  fetch(`${API}${path}`, { headers })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-msw-upstream-'))
  ;[upstream, broken] = await Promise.all([
    startSandboxUpstream(['--seed', '7']),
    startBrokenUpstream(),
  ])
}, 60_000)
afterEach(() => {
  sandbox?.close()
  sandbox = undefined
})
afterAll(async () => {
  await Promise.all([upstream?.stop(), broken?.stop()])
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

describe('setupSandbox in front of an upstream', () => {
  it('forwards without the sandbox parameters and passes the answer on; other scenarios stay local', async () => {
    const s = start({ upstream: upstream.url })
    const response = await get('/pets?limit=2&__session=w1&__delay=3', {
      ...FREE,
      'x-sandbox-note': 'mine',
    })
    const [sent] = (await sandboxJournal(upstream)).slice(-1) as [UpstreamEntry]
    expect(sent.url).toBe(`${upstream.url}/pets?limit=2`)
    expect(Object.keys(sent.request.headers).some((n) => n.startsWith('x-sandbox-'))).toBe(false)
    expect(await response.text()).toBe(sent.response.body)
    expect(response.headers.get('x-ratelimit-limit')).toBe('60')
    expect(s.session('w1').journal.list()[0]).toMatchObject({ source: 'upstream', violations: [] })

    const before = (await sandboxJournal(upstream)).length
    expect((await get('/pets?__scenario=unavailable')).status).toBe(503)
    expect(await (await get('/pets?__scenario=empty')).json()).toEqual([])
    await expect(get('/pets?__scenario=network-error')).rejects.toThrow()
    expect((await sandboxJournal(upstream)).length).toBe(before)
  })

  it('reports every violation of the broken upstream, and in strict mode answers 502 naming the rule', async () => {
    const s = start({ upstream: broken.url })
    await get('/pets')
    await get('/pets?limit=0')
    const wrong = await get('/pets/4')
    expect(await wrong.json()).toEqual({ error: 'not found' })
    const rules = s.journal.list().map((e) => e.violations.map((v) => v.rule))
    expect(rules[0]).toContain('spec.rate-limit.headers')
    expect(rules[1]).toContain('gap.limitOutOfRange')
    expect(rules[2]).toContain('spec.errors.body')
    expect(s.journal.toHAR().log.entries[2]?._violations).toEqual(s.journal.list()[2]?.violations)

    start({ upstream: { url: broken.url, strict: true } })
    const strict = await get('/pets/4')
    expect(strict.status).toBe(502)
    expect(await strict.json()).toMatchObject({
      code: 'upstream_contract_violation',
      details: [expect.objectContaining({ field: 'spec.errors.body' })],
    })
  })

  it('answers 502 upstream_unavailable for a stopped upstream and 504 upstream_timeout for a hanging one', async () => {
    const gone = await startSandboxUpstream([])
    start({ upstream: gone.url })
    expect((await get('/pets/1')).status).toBe(200)
    await gone.stop()
    const down = await get('/pets/1')
    expect(down.status).toBe(502)
    expect(down.headers.get('x-ratelimit-remaining')).not.toBeNull()
    expect((await down.json()).code).toBe('upstream_unavailable')

    const hanging = await startBrokenUpstream({ hang: true })
    try {
      start({ upstream: { url: hanging.url, timeoutMs: 300 } })
      const late = await get('/pets')
      expect(late.status).toBe(504)
      expect((await late.json()).code).toBe('upstream_timeout')
      expect(await brokenJournal(hanging)).toHaveLength(1)
    } finally {
      await hanging.stop()
    }
  })

  it('records to a file, then replays it with the upstream stopped', async () => {
    const recorded = await startSandboxUpstream(['--seed', '5'])
    const file = join(dir, 'msw.har')
    const s = start({ upstream: { url: recorded.url, record: file } })
    const answers: string[] = []
    for (const path of ['/pets/3', '/pets?limit=3', '/pets/3'])
      answers.push(await (await get(path)).text())
    await s.upstream.flush()
    await recorded.stop()
    expect(JSON.parse(readFileSync(file, 'utf8')).log.entries).toHaveLength(3)

    const replay = start({ upstream: { replay: file } })
    for (const [i, path] of ['/pets/3', '/pets?limit=3', '/pets/3'].entries())
      expect(await (await get(path)).text()).toBe(answers[i])
    expect((await get('/pets/4')).status).toBe(404)
    expect(replay.journal.list().map((e) => e.source)).toEqual([
      'replay',
      'replay',
      'replay',
      'sandbox',
    ])
    expect(replay.journal.list()[3]?.code).toBe('replay_miss')
    // In code: the session can answer from the sandbox itself.
    replay.mode.set('sandbox')
    expect((await get('/pets/4')).status).toBe(200)
  })
})
