import { get } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyRef } from '../../src/journal/key-ref.js'
import { BUILT_IN_SCENARIOS } from '../../src/scenarios/scenario-registry.js'
import { killAllChildren } from '../server/spawn-cli.js'
import {
  brokenJournal,
  sandboxJournal,
  startBrokenUpstream,
  startSandboxUpstream,
  type UpstreamEntry,
  type UpstreamProcess,
} from '../support/upstream-processes.js'
import { FREE, type Front, startFront } from './upstream-front.js'

// The proof of issue 19 on the standalone server: the upstreams are processes of
// their own (another sandbox with another seed, and a deliberately broken one).
let upstream: UpstreamProcess
let broken: UpstreamProcess
const fronts: Front[] = []
const front = async (options: Parameters<typeof startFront>[0]): Promise<Front> => {
  const started = await startFront(options)
  fronts.push(started)
  return started
}

beforeAll(async () => {
  ;[upstream, broken] = await Promise.all([
    startSandboxUpstream(['--seed', '7', '--key', 'staging-only=pro']),
    startBrokenUpstream(),
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all(fronts.map((f) => f.close()))
  await Promise.all([upstream?.stop(), broken?.stop()])
  killAllChildren()
})

const upstreamCount = async (): Promise<number> => (await sandboxJournal(upstream)).length

describe('the server in front of an upstream', () => {
  it("forwards an API request and passes the upstream's answer on as received", async () => {
    const f = await front({ upstream: upstream.url })
    const response = await f.get('/v1/pets?limit=3')
    const body = await response.text()
    const [sent] = (await sandboxJournal(upstream)).slice(-1) as [UpstreamEntry]
    expect(sent.url).toBe(`${upstream.url}/pets?limit=3`)
    expect(response.status).toBe(200)
    // The upstream's pets (seed 7), not the front's own (default seed).
    expect(body).toBe(sent.response.body)
    const own = f.app.sandbox.db.pets.list({ limit: 3 }).pets.map((p) => p.name)
    expect(JSON.parse(body).map((p: { name: string }) => p.name)).not.toEqual(own)
    // Every header the upstream sent, with its value; its next link points at the front;
    // the Request-Id is the front's own (contract §22), the upstream's is not passed on.
    for (const [name, value] of Object.entries(sent.response.headers)) {
      if (name === 'link' || name === 'request-id') continue
      expect(response.headers.get(name), name).toBe(value)
    }
    expect(sent.response.headers['request-id']).toMatch(/^req_/)
    expect(response.headers.get('request-id')).toMatch(/^req_[0-9a-f]{24}$/)
    expect(response.headers.get('request-id')).not.toBe(sent.response.headers['request-id'])
    expect(response.headers.get('link')).toBe(
      sent.response.headers.link?.replace(upstream.url, `${f.origin}/v1`),
    )
    const [entry] = await f.journal()
    expect(entry).toMatchObject({ source: 'upstream', violations: [], status: 200 })
    expect(f.lines.find((line) => line.includes('/v1/pets?limit=3'))).toMatch(/ 200 .* upstream$/)
  })

  it("strips the sandbox's own query parameters and X-Sandbox-* headers before forwarding", async () => {
    const f = await front({ upstream: upstream.url })
    const response = await f.get(
      '/v1/pets?limit=2&__session=w1&__scenario=default&__trace=x&status=available&%5F%5Fenc=1',
      { ...FREE, 'X-Sandbox-Scenario': 'default', 'X-Sandbox-Note': 'mine' },
    )
    expect(response.status).toBe(200)
    const [sent] = (await sandboxJournal(upstream)).slice(-1) as [UpstreamEntry]
    expect(sent.url).toBe(`${upstream.url}/pets?limit=2&status=available`)
    expect(Object.keys(sent.request.headers).filter((n) => n.startsWith('x-sandbox-'))).toEqual([])
    // The front kept it in the session the client chose.
    expect((await f.journal('w1')).map((e) => e.source)).toEqual(['upstream'])
  })

  it('passes Authorization through, or sends the upstream key and checks sandbox keys itself', async () => {
    const pass = await front({ upstream: upstream.url })
    await pass.get('/v1/pets/1', { authorization: 'Bearer sandbox-pro' })
    expect((await sandboxJournal(upstream)).at(-1)?.keyRef).toBe(keyRef('sandbox-pro'))

    // A key only the upstream knows is forwarded; its requests stay in `default` (decision 0026).
    const staging = { authorization: 'Bearer staging-only' }
    expect((await pass.get('/v1/pets/1?__session=w9', staging)).status).toBe(200)
    expect((await sandboxJournal(upstream)).at(-1)?.keyRef).toBe(keyRef('staging-only'))
    expect((await pass.journal()).at(-1)).toMatchObject({ source: 'upstream', status: 200 })
    expect(await pass.journal('w9')).toEqual([])

    const keyed = await front({ upstream: { url: upstream.url, key: 'sandbox-enterprise' } })
    expect((await keyed.get('/v1/pets/2')).status).toBe(200)
    expect((await sandboxJournal(upstream)).at(-1)?.keyRef).toBe(keyRef('sandbox-enterprise'))
    const before = await upstreamCount()
    const refused = await keyed.get('/v1/pets/2', { authorization: 'Bearer not-a-key' })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ code: 'invalid_api_key' })
    expect(await upstreamCount()).toBe(before)
  })

  it('answers every scenario but default, slow and flaky itself: the upstream never sees them', async () => {
    const f = await front({ upstream: upstream.url, maxHoldMs: 50 })
    const before = await upstreamCount()
    // A timeline (outage) answers as its phase: default at first, which forwards.
    const local = BUILT_IN_SCENARIOS.filter((s) => s.timeline === undefined)
      .map((s) => s.name)
      .filter((name) => !['default', 'slow', 'flaky'].includes(name))
    for (const name of local) {
      await f.get(`/v1/pets?__scenario=${name}`).catch(() => undefined)
    }
    expect(await upstreamCount()).toBe(before)
    const entries = await f.journal()
    expect(entries.map((e) => e.scenario)).toEqual(local)
    expect(new Set(entries.map((e) => e.source))).toEqual(new Set(['sandbox']))
    expect(entries.find((e) => e.scenario === 'rate-limited')?.status).toBe(429)

    // slow: the real answer, late.
    const slow = await f.get('/v1/pets?limit=1&__scenario=slow&__delay=20')
    expect(slow.status).toBe(200)
    expect(await upstreamCount()).toBe(before + 1)
    expect((await f.journal()).at(-1)).toMatchObject({ source: 'upstream', delayMs: 20 })
  })

  it('answers a scenario without a Bearer key with its own 401, and forwards such a request only to be judged upstream', async () => {
    const f = await front({ upstream: upstream.url })
    const before = await upstreamCount()
    const missing = await f.get('/v1/pets?__scenario=empty', {})
    expect(missing.status).toBe(401)
    expect(await missing.json()).toMatchObject({ code: 'missing_api_key' })
    const malformed = await f.get('/v1/pets?__scenario=empty', { authorization: 'Basic eDp5' })
    expect(await malformed.json()).toMatchObject({ code: 'malformed_authorization' })
    expect(await upstreamCount()).toBe(before)
    // A pass-through key the sandbox cannot judge gets the scenario; the default scenario
    // forwards, and the upstream answers for the key.
    expect(
      (await f.get('/v1/pets?__scenario=empty', { authorization: 'Bearer staging' })).status,
    ).toBe(200)
    const forwarded = await f.get('/v1/pets', {})
    expect(forwarded.status).toBe(401)
    expect(await upstreamCount()).toBe(before + 1)
    expect((await f.journal()).map((e) => e.source)).toEqual([
      'sandbox',
      'sandbox',
      'sandbox',
      'upstream',
    ])
  })

  it('fails the seeded share of flaky requests locally and forwards the rest', async () => {
    const f = await front({ upstream: upstream.url, flaky: { rate: 0.5, seed: 11 } })
    const before = await upstreamCount()
    for (let i = 0; i < 12; i++)
      await f.get(`/v1/pets/${i + 1}?__scenario=flaky`).catch(() => 'failed connection')
    const entries = await f.journal()
    const forwarded = entries.filter((e) => e.source === 'upstream')
    const failed = entries.filter((e) => e.source === 'sandbox')
    expect(forwarded.length).toBeGreaterThan(0)
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.every((e) => e.status === 503 || e.fault === 'network-error')).toBe(true)
    expect(await upstreamCount()).toBe(before + forwarded.length)
  })

  it('reports each violation of a broken upstream in the journal, the HAR and the log, passing the answers on', async () => {
    const f = await front({ upstream: broken.url })
    const noLimits = await f.get('/v1/pets')
    expect(noLimits.status).toBe(200)
    expect(noLimits.headers.get('x-ratelimit-limit')).toBeNull()
    expect((await f.get('/v1/pets?limit=0')).status).toBe(200)
    const wrongError = await f.get('/v1/pets/9')
    expect(wrongError.status).toBe(404)
    expect(await wrongError.json()).toEqual({ error: 'not found' })

    const rules = (await f.journal()).map((e) => e.violations.map((v) => v.rule))
    expect(rules[0]).toContain('spec.rate-limit.headers')
    expect(rules[1]).toContain('gap.limitOutOfRange')
    expect(rules[2]).toContain('spec.errors.body')
    const har = await (await fetch(`${f.origin}/__sandbox/requests.har`)).json()
    expect(
      har.log.entries.map((e: { _violations: { rule: string }[] }) => e._violations.length),
    ).toEqual(rules.map((r) => r.length))
    expect(f.lines.join('\n')).toContain('! gap.limitOutOfRange')
    expect(f.lines.join('\n')).toMatch(/404 .* upstream +! .*spec\.errors\.body/)
  })

  it('keeps header names as sent and repeated headers, and answers HEAD with the headers only', async () => {
    const f = await front({ upstream: broken.url })
    const raw = await new Promise<{ headers: string[]; body: string }>((resolve, reject) => {
      get(`${f.origin}/v1/pets`, { headers: FREE }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString()
        })
        res.on('end', () => resolve({ headers: res.rawHeaders, body }))
      }).on('error', reject)
    })
    expect(raw.headers).toContain('X-Upstream-Trace')
    expect(raw.headers.filter((h) => /^[ab]=[12]; Path=\/$/.test(h))).toEqual([
      'a=1; Path=/',
      'b=2; Path=/',
    ])
    expect(JSON.parse(raw.body)).toHaveLength(2)
    const head = await f.send('HEAD', '/v1/pets')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect(head.headers.get('x-upstream-trace')).toBe('T-1')
  })

  it('answers 502 upstream_contract_violation in strict mode, naming the rule; gap-only answers pass', async () => {
    const f = await front({ upstream: { url: broken.url, strict: true } })
    const replaced = await f.get('/v1/pets/9')
    expect(replaced.status).toBe(502)
    expect(replaced.headers.get('x-ratelimit-limit')).not.toBeNull()
    const body = await replaced.json()
    expect(body).toMatchObject({ code: 'upstream_contract_violation', status: 502 })
    expect(body.message).toContain('spec.errors.body')
    expect(body.details).toContainEqual(expect.objectContaining({ field: 'spec.errors.body' }))
    expect((await f.get('/v1/pets')).status).toBe(502)
    // A gap of the spec is the deployment's call: reported, not replaced.
    expect((await f.get('/v1/pets?limit=0')).status).toBe(200)
    expect((await f.journal()).map((e) => [e.status, e.source])).toEqual([
      [502, 'upstream'],
      [502, 'upstream'],
      [200, 'upstream'],
    ])
  })

  it('answers a body past maxBodyBytes 413 itself, and renames only its own codes (errorCodes)', async () => {
    const f = await front({
      upstream: upstream.url,
      maxBodyBytes: 1_024,
      errorCodes: { service_unavailable: 'down', route_not_found: 'no_route' },
    })
    const before = await upstreamCount()
    const big = await f.send('POST', '/v1/pets', {
      headers: { ...FREE, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2_000) }),
    })
    expect(big.status).toBe(413)
    expect(await upstreamCount()).toBe(before)
    expect((await (await f.get('/v1/pets?__scenario=unavailable')).json()).code).toBe('down')
    // The upstream's own 404 is passed on as it answered it.
    expect((await (await f.get('/v1/nowhere')).json()).code).toBe('route_not_found')
  })

  it('answers 502 upstream_unavailable, JSON with the rate-limit headers, when the upstream is down', async () => {
    const gone = await startSandboxUpstream([])
    const f = await front({ upstream: gone.url })
    expect((await f.get('/v1/pets/1')).status).toBe(200)
    await gone.stop()
    const down = await f.get('/v1/pets/1')
    expect(down.status).toBe(502)
    expect(down.headers.get('content-type')).toBe('application/json')
    expect(down.headers.get('x-ratelimit-remaining')).not.toBeNull()
    expect(await down.json()).toMatchObject({ code: 'upstream_unavailable', status: 502 })
  })

  it('answers 504 upstream_timeout when the upstream hangs, within the timeout', async () => {
    const hanging = await startBrokenUpstream({ hang: true })
    try {
      const f = await front({ upstream: { url: hanging.url, timeoutMs: 300 } })
      const timedOut = await f.get('/v1/pets?limit=1')
      expect(timedOut.status).toBe(504)
      expect(timedOut.headers.get('x-ratelimit-limit')).not.toBeNull()
      expect(await timedOut.json()).toMatchObject({ code: 'upstream_timeout', status: 504 })
      // It did reach the upstream, which never answered.
      expect((await brokenJournal(hanging)).map((r) => r.url)).toEqual(['/v1/pets?limit=1'])
    } finally {
      await hanging.stop()
    }
  })
})

describe('modes and local limits', () => {
  it('moves a session between sandbox and upstream at run time; reset goes back and leaves the upstream alone', async () => {
    const f = await front({ upstream: upstream.url })
    const mode = (body: unknown, session = 'w1') =>
      fetch(`${f.origin}/__sandbox/mode?__session=${session}`, {
        method: body === undefined ? 'GET' : 'PUT',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      })
    expect(await (await mode(undefined)).json()).toEqual({
      mode: 'upstream',
      modes: ['sandbox', 'upstream'],
      upstream: upstream.url,
      replay: null,
      recorded: 0,
    })
    expect(await (await mode({ mode: 'sandbox' })).json()).toMatchObject({ mode: 'sandbox' })
    const before = await upstreamCount()
    const own = f.app.sandbox.db.pets.get(1)?.name
    const local = await (await f.get('/v1/pets/1?__session=w1')).json()
    expect(local.name).toBe(own)
    expect(await upstreamCount()).toBe(before)
    // Other sessions stay in front of the upstream.
    await f.get('/v1/pets/1')
    expect(await upstreamCount()).toBe(before + 1)

    const unavailable = await mode({ mode: 'replay' })
    expect(unavailable.status).toBe(409)
    expect(await unavailable.json()).toMatchObject({ code: 'mode_unavailable' })
    const bad = await mode({ mode: 'staging' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'validation_failed' })

    const upstreamPets = await (
      await fetch(`${upstream.url}/pets?limit=100`, { headers: FREE })
    ).text()
    await fetch(`${f.origin}/__sandbox/reset?__session=w1`, { method: 'POST' })
    expect(f.app.sandbox.session('w1').mode.get()).toBe('upstream')
    expect(await (await fetch(`${upstream.url}/pets?limit=100`, { headers: FREE })).text()).toBe(
      upstreamPets,
    )
    // In code, too.
    f.app.sandbox.session('w2').mode.set('sandbox')
    expect(() => f.app.sandbox.mode.set('replay')).toThrow(/Failed to set the mode/)
  })

  it('leaves local quotas off in front of the upstream unless localLimits, then answers 429 itself', async () => {
    const keys = { tiny: { plan: 'enterprise' as const, perMinute: 2 } }
    const open = await front({ upstream: { url: upstream.url, key: 'sandbox-enterprise' }, keys })
    const limited = await front({
      upstream: { url: upstream.url, key: 'sandbox-enterprise', localLimits: true },
      keys,
    })
    const tiny = { authorization: 'Bearer tiny' }
    const before = await upstreamCount()
    for (let i = 0; i < 3; i++) expect((await open.get('/v1/pets/3', tiny)).status).toBe(200)
    expect(await upstreamCount()).toBe(before + 3)
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await limited.get('/v1/pets/3', tiny)).status)
    expect(statuses).toEqual([200, 200, 429])
    expect(await upstreamCount()).toBe(before + 5)
  })
})
