import { afterEach, describe, expect, it } from 'vitest'
import { FIDELITY_DEFAULTS } from '../../src/contract/fidelity.js'
import { createSandboxServer, type SandboxServer, verify } from '../../src/server/index.js'
import { formatReport } from '../../src/verify/format-report.js'
import { redactTarget } from '../../src/verify/redact-report.js'
import { runVerify } from '../../src/verify/run-verify.js'
import { toJunitXml } from '../../src/verify/to-junit-xml.js'
import type { VerifyRequest, VerifyResponse } from '../../src/verify/verify-types.js'

const apps: SandboxServer[] = []
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()))
})

const serve = async (options: Parameters<typeof createSandboxServer>[0] = {}) => {
  const app = createSandboxServer(options)
  apps.push(app)
  const { url } = await app.listen(0, '127.0.0.1')
  return { app, target: `${url}/v1` }
}

describe('verify is safe by default', () => {
  it('is read-only without allowWrites: no POST reaches the target, the createPet checks are skipped', async () => {
    const { app, target } = await serve()
    const report = await verify({ target, key: 'sandbox-enterprise' })
    const methods = new Set(app.sandbox.journal.list().map((entry) => entry.method))
    expect([...methods]).toEqual(['GET'])
    expect(app.sandbox.db.pets.count).toBe(25)
    expect(report.createdPets).toEqual([])
    expect(report.passed).toBe(true)
    const skipped = report.skipped.filter((s) => s.reason.startsWith('Needs --allow-writes'))
    expect(skipped.map((s) => s.id).sort()).toEqual([
      'gap.defaultStatus',
      'gap.maxBodyBytes',
      'gap.nameMaxLength',
      'gap.unknownFields',
      'spec.create.body',
      'spec.create.content-type',
      'spec.create.created',
      'spec.create.echo',
      'spec.create.invalid-values',
      'spec.create.malformed-json',
      'spec.create.missing-fields',
    ])
    // The config written for the gaps not seen is the sandbox's current setting.
    expect(report.config).toEqual(FIDELITY_DEFAULTS)
  })

  it('creates at most 5 pets with allowWrites, each named to be found and cleaned up', async () => {
    const { app, target } = await serve()
    const report = await verify({ target, key: 'sandbox-enterprise', allowWrites: true })
    const created = app.sandbox.db.pets.count - 25
    expect(created).toBe(report.createdPets.length)
    expect(created).toBeGreaterThan(0)
    expect(created).toBeLessThanOrEqual(5)
    const names = app.sandbox.db.pets
      .list({ limit: 100 })
      .pets.slice(25)
      .map((p) => p.name)
    expect(names).toEqual(report.createdPets.map((p) => p.name))
  })

  it('sends as many requests as docs/verify.md says: 17 read-only, 33 with writes against a target that agrees', async () => {
    const { target } = await serve()
    expect((await verify({ target, key: 'sandbox-enterprise' })).requests).toBe(17)
    const writes = await verify({ target, key: 'sandbox-enterprise', allowWrites: true })
    expect(writes.requests).toBe(33)
    // Each required field missing alone, and each field of a wrong type, is a probe of its own.
    const observed = (id: string) => String(writes.checks.find((c) => c.id === id)?.observed ?? '')
    expect(observed('spec.create.missing-fields').match(/POST \/pets/g)).toHaveLength(3)
    expect(observed('spec.create.invalid-values').match(/POST \/pets/g)).toHaveLength(4)
    expect(writes.passed).toBe(true)
  })

  it('stops at its request budget and says how to raise it', async () => {
    const { app, target } = await serve()
    const report = await verify({ target, key: 'sandbox-enterprise', maxRequests: 5 })
    expect(report.requests).toBe(5)
    expect(app.sandbox.journal.list()).toHaveLength(5)
    expect(report.stopped).toEqual({
      reason: 'budget',
      message: expect.stringMatching(/raise --max-requests/),
    })
    expect(report.passed).toBe(false)
  })

  it('stops at the first 429 of its key and sends nothing after it', async () => {
    // A key with a quota of 4 a minute, on a frozen sandbox clock whose window reset has passed.
    const { app, target } = await serve({
      keys: { tiny: { plan: 'enterprise', perMinute: 4 } },
      now: () => Date.parse('2020-01-01T00:00:30Z'),
    })
    const report = await verify({ target, key: 'tiny' })
    const journal = app.sandbox.journal.list()
    const first429 = journal.findIndex((entry) => entry.status === 429)
    expect(first429).toBeGreaterThan(0)
    expect(journal.slice(first429 + 1)).toEqual([])
    expect(report.stopped?.reason).toBe('rate-limited')
    expect(report.stopped?.message).toMatch(
      /answered 429 \(Retry-After: \d+\); verify sends nothing more/,
    )
    expect(report.rateLimit).toEqual({ limit: 4, remaining: 3, reset: expect.any(Number) })
  })

  it('stops at once when the target answers 429 to everything (the rate-limited scenario)', async () => {
    const { app, target } = await serve({ scenario: 'rate-limited' })
    const report = await verify({ target, key: 'sandbox-enterprise' })
    expect(app.sandbox.journal.list()).toHaveLength(1)
    expect(report.requests).toBe(1)
    expect(report.stopped?.reason).toBe('rate-limited')
    expect(report.checks.find((c) => c.id === 'spec.auth.valid-key')?.pass).toBe(false)
    expect(report.checks.find((c) => c.id === 'spec.rate-limit.retry-after')?.pass).toBe(true)
  })
})

describe('verify with a key the target refuses', () => {
  it('fails the key check, still runs the checks that need no key, and skips the rest', async () => {
    const { target } = await serve()
    const report = await verify({ target, key: 'not-a-key-of-this-sandbox' })
    expect(report.checks.find((c) => c.id === 'spec.auth.valid-key')).toMatchObject({
      pass: false,
      message: expect.stringMatching(/answered 401: check the key and the target URL/),
    })
    expect(report.checks.find((c) => c.id === 'spec.auth.missing-key')?.pass).toBe(true)
    expect(report.skipped.find((s) => s.id === 'spec.get.found')?.reason).toBe(
      'Not run: the key was refused.',
    )
    expect(report.passed).toBe(false)
    expect(JSON.stringify(report)).not.toContain('not-a-key-of-this-sandbox')
  })
})

describe('verify waits for a minute window rather than be refused', () => {
  const answer = (headers: Record<string, string>): VerifyResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '60', ...headers },
    body: '[]',
  })

  it('sleeps until X-RateLimit-Reset when Remaining reaches 0 within a minute, then goes on', async () => {
    const now = Date.parse('2030-01-01T00:00:50Z')
    const sleeps: number[] = []
    let sent = 0
    const report = await runVerify({
      baseUrl: 'https://api.example.test/v1',
      key: 'k',
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms)
      },
      transport: async () => {
        sent++
        return answer({
          'x-ratelimit-remaining': sent === 1 ? '0' : '50',
          'x-ratelimit-reset': String(Date.parse('2030-01-01T00:01:00Z') / 1000),
        })
      },
    })
    expect(sleeps).toEqual([10_250])
    expect(report.requests).toBeGreaterThan(5)
  })

  it('stops when the quota resets later than a minute from now', async () => {
    const now = Date.parse('2030-01-01T00:00:50Z')
    const report = await runVerify({
      baseUrl: 'https://api.example.test/v1',
      key: 'k',
      now: () => now,
      sleep: () => Promise.reject(new Error('must not sleep')),
      transport: async () =>
        answer({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 3_600) }),
    })
    expect(report.stopped?.reason).toBe('quota')
    expect(report.stopped?.message).toMatch(/quota is used up .* until 2030-01-01T01:00:50.000Z/)
  })
})

describe('verify redacts secrets in every report', () => {
  const KEY = 'sk_live_Secret+Key/123'
  // A target that echoes whatever Authorization it got, in its body and in a header.
  const echo = async (request: VerifyRequest): Promise<VerifyResponse> => ({
    status: 401,
    headers: {
      'content-type': 'application/json',
      'www-authenticate': `Bearer realm="${request.headers.authorization ?? ''}"`,
    },
    body: JSON.stringify({
      code: 'invalid_api_key',
      message: `Key ${request.headers.authorization ?? ''} (${encodeURIComponent(KEY)}) refused`,
      status: 401,
    }),
  })

  it('never writes the key in the JSON, the table or the JUnit XML', async () => {
    const report = await runVerify({
      baseUrl: 'https://api.example.test/v1',
      key: KEY,
      transport: echo,
    })
    for (const text of [JSON.stringify(report), formatReport(report), toJunitXml(report)]) {
      expect(text).not.toContain(KEY)
      expect(text).not.toContain(encodeURIComponent(KEY))
      expect(text).not.toContain('Secret')
    }
    expect(JSON.stringify(report)).toContain('sk_l…(redacted)')
  })

  it('keeps the report whole when the key is a short word such as k, e or s (regression: report.checks is not iterable)', async () => {
    const { target } = await serve({
      keys: { k: { plan: 'pro' }, e: { plan: 'pro' }, s: { plan: 'pro' }, spec: { plan: 'pro' } },
    })
    const long = await verify({ target, key: 'sandbox-pro' })
    for (const key of ['k', 'e', 's', 'spec']) {
      const report = await verify({ target, key })
      // Field names, ids, kinds and the emitted config are never rewritten.
      expect(Object.keys(report)).toEqual(Object.keys(long))
      expect(report.checks.map((c) => [c.id, c.kind, c.pass])).toEqual(
        long.checks.map((c) => [c.id, c.kind, c.pass]),
      )
      expect(report.skipped.map((c) => [c.id, c.kind])).toEqual(
        long.skipped.map((c) => [c.id, c.kind]),
      )
      expect(report.config).toEqual(FIDELITY_DEFAULTS)
      expect(report.passed).toBe(true)
      // Prose is untouched where the key is only part of a word.
      expect(report.checks.find((c) => c.id === 'spec.auth.valid-key')?.message).toBe(
        'The key is accepted: GET /pets?limit=100 is answered 200.',
      )
      expect(formatReport(report)).toMatch(/^PASSED: /m)
      expect(toJunitXml(report)).toContain('<testsuite name="spec"')
    }
  })

  it('redacts a short key where the target echoes it as a word, and keeps the error-code map intact', async () => {
    const echoShort = async (request: VerifyRequest): Promise<VerifyResponse> => ({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        code: 'e_refused',
        message: `Key "${(request.headers.authorization ?? '').slice('Bearer '.length)}" refused (${request.headers.authorization ?? ''}).`,
        status: 401,
      }),
    })
    const report = await runVerify({
      baseUrl: 'https://api.example.test/v1',
      key: 'e',
      transport: echoShort,
    })
    const json = JSON.stringify(report)
    expect(json).not.toMatch(/Key \\"e\\"|Bearer e\b/)
    expect(json).toContain('Bearer …(redacted)')
    // The target's codes, keys and values, are kept as they are: the config stays usable.
    const codes = report.checks.find((c) => c.id === 'gap.errorCodes')?.observed
    expect(codes).toMatchObject({ missing_api_key: 'e_refused' })
    expect(report.config.errorCodes).toMatchObject({ invalid_api_key: 'e_refused' })
  })

  it('redacts credentials and secret query parameters of the target', () => {
    expect(redactTarget('https://ci:hunter2@staging.example/v1')).toBe(
      'https://(redacted)@staging.example/v1',
    )
    expect(redactTarget('https://staging.example/v1?api_key=abc')).toBe(
      'https://staging.example/v1?api_key=(redacted)',
    )
  })
})
