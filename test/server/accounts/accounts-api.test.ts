import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, api, control, portalClient, startAccountsServer } from './account-helpers.js'

let server: Awaited<ReturnType<typeof startAccountsServer>>
beforeAll(async () => {
  server = await startAccountsServer()
})
afterAll(() => server.close())

// Sign-ups are throttled per address (5 an hour): each test moves the clock past the window first.
const nextHour = () => {
  server.clock.now += 3_600_001
}

describe('the account API (contract §22)', () => {
  it('signs up (201 {id, email} and the cookie), tells me, and refuses a taken email', async () => {
    nextHour()
    const client = portalClient(server.origin)
    const signup = await client.call('POST', '/portal/api/signup', {
      email: 'Dev@Example.com',
      password: 'correct horse battery',
    })
    expect(signup.status).toBe(201)
    expect(signup.body).toEqual({
      id: expect.stringMatching(/^acct_[0-9a-f]{24}$/),
      email: 'dev@example.com',
    })
    const cookie = signup.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(
      /^petstore_portal=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800$/,
    )
    const me = await client.refreshCsrf()
    expect(me.status).toBe(200)
    expect(me.body).toEqual({
      id: signup.body?.id,
      email: 'dev@example.com',
      createdAt: new Date(server.clock.now).toISOString(),
      csrfToken: expect.stringMatching(/^[0-9a-f]{48}$/),
    })
    const again = await portalClient(server.origin).call('POST', '/portal/api/signup', {
      email: 'dev@EXAMPLE.com',
      password: 'another long password',
    })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'email_taken', status: 409 })
  })

  it('marks the cookie Secure when the request came over HTTPS (X-Forwarded-Proto)', async () => {
    nextHour()
    const answer = await portalClient(server.origin).call(
      'POST',
      '/portal/api/signup',
      { email: 'secure@example.com', password: 'correct horse battery' },
      { 'x-forwarded-proto': 'https' },
    )
    expect(answer.headers.get('set-cookie')).toMatch(/; Secure$/)
  })

  it.each([
    [{ email: 'not-an-address', password: 'long enough password' }, 'email'],
    [{ email: 'a@example.com', password: 'short pass' }, 'password'],
    [{ email: 'a@example.com', password: 'x'.repeat(257) }, 'password'],
    [{ email: 'a@example.com', password: 12345678901234 }, 'password'],
    [{ email: 'a@example.com', password: 'long enough password', admin: true }, 'admin'],
    [{ password: 'long enough password' }, 'email'],
  ])('refuses a bad sign-up %j: 400 validation_failed naming %s', async (body, field) => {
    const answer = await portalClient(server.origin).api('POST', '/signup', body)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ code: 'validation_failed' })
    expect((answer.body as { details: { field: string }[] }).details.map((d) => d.field)).toContain(
      field,
    )
  })

  it('counts a password in characters: 12 emoji pass, 11 do not, 256 pass', async () => {
    nextHour()
    const ok = await portalClient(server.origin).signup('emoji@example.com', '🐈'.repeat(12))
    expect(ok.status).toBe(201)
    const short = await portalClient(server.origin).signup('emoji2@example.com', '🐈'.repeat(11))
    expect(short.status).toBe(400)
    const longest = await portalClient(server.origin).signup('longest@example.com', 'p'.repeat(256))
    expect(longest.status).toBe(201)
  })

  it('answers the same 401 invalid_credentials for an unknown email and a wrong password', async () => {
    nextHour()
    await portalClient(server.origin).signup('known@example.com', 'the right password')
    const wrong = await portalClient(server.origin).api('POST', '/login', {
      email: 'known@example.com',
      password: 'the wrong password',
    })
    const unknown = await portalClient(server.origin).api('POST', '/login', {
      email: 'nobody@example.com',
      password: 'the wrong password',
    })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual(unknown.body)
    expect(wrong.body).toMatchObject({ code: 'invalid_credentials' })
    const right = await portalClient(server.origin).api('POST', '/login', {
      email: 'KNOWN@example.com',
      password: 'the right password',
    })
    expect(right.status).toBe(204)
    expect(right.headers.get('set-cookie')).toMatch(/^petstore_portal=/)
  })

  it('throttles log-ins: the 11th try in a minute after 10 failures is 429 with Retry-After, then the window ends', async () => {
    nextHour()
    await portalClient(server.origin).signup('target@example.com', 'the right password')
    const attempt = (password: string) =>
      portalClient(server.origin).api('POST', '/login', { email: 'target@example.com', password })
    for (let i = 0; i < 10; i++) expect((await attempt(`wrong password ${i}`)).status).toBe(401)
    const limited = await attempt('the right password')
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ code: 'rate_limit_exceeded' })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    server.clock.now += 60_000
    expect((await attempt('the right password')).status).toBe(204)
  })

  it('throttles sign-ups: 5 an hour from one address, the 6th is 429', async () => {
    nextHour()
    for (let i = 0; i < 5; i++)
      expect((await portalClient(server.origin).signup(`burst${i}@example.com`)).status).toBe(201)
    const sixth = await portalClient(server.origin).signup('burst5@example.com')
    expect(sixth.status).toBe(429)
    expect(sixth.body).toMatchObject({ code: 'rate_limit_exceeded' })
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3000)
  })

  it('logs out (204; the cookie no longer signs in) and needs the CSRF token to do it', async () => {
    nextHour()
    const client = portalClient(server.origin)
    await client.signup('leaver@example.com')
    const csrf = client.csrf
    client.csrf = undefined
    const noToken = await client.api('POST', '/logout')
    expect(noToken.status).toBe(403)
    expect(noToken.body).toMatchObject({ code: 'csrf_failed' })
    const wrongToken = await client.api('POST', '/logout', undefined, { 'x-csrf-token': 'nope' })
    expect(wrongToken.status).toBe(403)
    client.csrf = csrf
    const cookie = client.cookie
    expect((await client.api('POST', '/logout')).status).toBe(204)
    client.cookie = cookie
    const me = await client.api('GET', '/me')
    expect(me.status).toBe(401)
    expect(me.body).toMatchObject({ code: 'login_required' })
  })

  it('makes, lists, rolls and revokes keys; the whole key is shown once and works on the API', async () => {
    nextHour()
    const client = portalClient(server.origin)
    const { body: account } = await client.signup('keys@example.com')
    const made = await client.api('POST', '/keys', { name: 'CI', plan: 'pro' })
    expect(made.status).toBe(201)
    const key = String(made.body?.key)
    expect(key).toMatch(/^sk_acct_[0-9a-f]{48}$/)
    expect(made.body).toMatchObject({
      name: 'CI',
      plan: 'pro',
      prefix: key.slice(0, 12),
      lastUsedAt: null,
    })
    const listed = await client.api('GET', '/keys')
    expect(listed.body).toEqual([
      {
        id: made.body?.id,
        name: 'CI',
        plan: 'pro',
        prefix: key.slice(0, 12),
        limits: { perMinute: 300, perDay: 10_000 },
        createdAt: new Date(server.clock.now).toISOString(),
        lastUsedAt: null,
      },
    ])
    expect(JSON.stringify(listed.body)).not.toContain(key)
    // The key lands in the account's sandbox, whatever session the request names.
    const created = await api(server.origin, key, '/v1/pets?__session=elsewhere', {
      method: 'POST',
      body: { name: 'Mine', categoryId: 1 },
    })
    expect(created.body).toMatchObject({ name: 'Mine' })
    expect(created.status).toBe(201)
    expect(created.headers.get('x-ratelimit-limit')).toBe('300')
    const demo = await api(server.origin, 'sandbox-free', '/v1/pets?limit=100')
    expect(demo.body.map((p: { name: string }) => p.name)).not.toContain('Mine')
    const sessions = await control(server.origin, 'GET', '/sessions')
    expect(sessions.body.map((s: { id: string }) => s.id)).toContain(account?.id)
    expect(sessions.body.map((s: { id: string }) => s.id)).not.toContain('elsewhere')
    expect((await client.api('GET', '/keys')).body?.[0]?.lastUsedAt).toBe(
      new Date(server.clock.now).toISOString(),
    )
    // Roll: a new key under the same name, the old one refused at once.
    const rolled = await client.api('POST', `/keys/${made.body?.id}/roll`)
    expect(rolled.status).toBe(201)
    expect(rolled.body).toMatchObject({ name: 'CI', plan: 'pro' })
    expect(rolled.body?.key).not.toBe(key)
    const old = await api(server.origin, key)
    expect(old.status).toBe(401)
    expect(old.body).toMatchObject({ code: 'invalid_api_key' })
    const fresh = String(rolled.body?.key)
    expect((await api(server.origin, fresh)).status).toBe(200)
    // Revoke: 204, then 401 at once.
    expect((await client.api('DELETE', `/keys/${rolled.body?.id}`)).status).toBe(204)
    expect((await api(server.origin, fresh)).status).toBe(401)
    expect((await client.api('GET', '/keys')).body).toEqual([])
    const again = await client.api('DELETE', `/keys/${rolled.body?.id}`)
    expect(again.status).toBe(404)
    expect(again.body).toMatchObject({ code: 'key_not_found' })
  })

  it('rolls with a grace: the old key works until expiresInS, then 401; more than a day is refused', async () => {
    nextHour()
    const client = portalClient(server.origin)
    await client.signup('grace@example.com')
    const made = await client.api('POST', '/keys', { name: 'app', plan: 'free' })
    const tooLong = await client.api('POST', `/keys/${made.body?.id}/roll`, { expiresInS: 86_401 })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body).toMatchObject({ code: 'validation_failed' })
    const rolled = await client.api('POST', `/keys/${made.body?.id}/roll`, { expiresInS: 86_400 })
    expect(rolled.status).toBe(201)
    const old = String(made.body?.key)
    server.clock.now += 86_399_999
    expect((await api(server.origin, old)).status).toBe(200)
    server.clock.now += 1
    expect((await api(server.origin, old)).status).toBe(401)
    expect((await api(server.origin, String(rolled.body?.key))).status).toBe(200)
  })

  it('keeps at most 10 live keys (409 too_many_keys) and refuses enterprise from the account', async () => {
    nextHour()
    const client = portalClient(server.origin)
    await client.signup('many@example.com')
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      const made = await client.api('POST', '/keys', { name: `k${i}`, plan: 'free' })
      expect(made.status).toBe(201)
      ids.push(String(made.body?.id))
    }
    const eleventh = await client.api('POST', '/keys', { name: 'k10', plan: 'free' })
    expect(eleventh.status).toBe(409)
    expect(eleventh.body).toMatchObject({ code: 'too_many_keys' })
    // A roll at the cap ends the old key first: it still works.
    expect((await client.api('POST', `/keys/${ids[0]}/roll`)).status).toBe(201)
    expect((await client.api('DELETE', `/keys/${ids[1]}`)).status).toBe(204)
    expect((await client.api('POST', '/keys', { name: 'k10', plan: 'free' })).status).toBe(201)
    const enterprise = await client.api('POST', '/keys', { name: 'big', plan: 'enterprise' })
    expect(enterprise.status).toBe(400)
    expect(enterprise.body).toMatchObject({ code: 'validation_failed' })
  })

  it('holds the budgets under concurrency: 15 keys at once make exactly 10, 8 sign-ups at once make exactly 5', async () => {
    nextHour()
    const client = portalClient(server.origin)
    await client.signup('race@example.com')
    const made = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        client.api('POST', '/keys', { name: `r${i}`, plan: 'free' }),
      ),
    )
    expect(made.filter((r) => r.status === 201)).toHaveLength(10)
    expect(made.filter((r) => r.status === 409)).toHaveLength(5)
    nextHour()
    const signups = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        portalClient(server.origin).signup(`crowd${i}@example.com`),
      ),
    )
    expect(signups.filter((r) => r.status === 201)).toHaveLength(5)
    expect(signups.filter((r) => r.status === 429)).toHaveLength(3)
  })

  it('answers a body over 64 KiB with 413 and a body that is not JSON with 400', async () => {
    const huge = await portalClient(server.origin).api('POST', '/signup', {
      email: 'big@example.com',
      password: 'x'.repeat(70_000),
    })
    expect(huge.status).toBe(413)
    expect(huge.body).toMatchObject({ code: 'payload_too_large' })
    const broken = await portalClient(server.origin).api('POST', '/login', '{"email":')
    expect(broken.status).toBe(400)
    expect(broken.body).toMatchObject({ code: 'malformed_json' })
  })

  it('needs the cookie for the account API (401 login_required) and CSRF on writes (403 csrf_failed)', async () => {
    const anonymous = await portalClient(server.origin).api('GET', '/keys')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({ code: 'login_required' })
    nextHour()
    const client = portalClient(server.origin)
    await client.signup('csrf@example.com')
    client.csrf = undefined
    const write = await client.api('POST', '/keys', { name: 'x', plan: 'free' })
    expect(write.status).toBe(403)
    expect(write.body).toMatchObject({ code: 'csrf_failed' })
  })

  it('refuses a cross-site request to the account API (403 forbidden)', async () => {
    const answer = await portalClient(server.origin).api(
      'POST',
      '/login',
      { email: 'a@example.com', password: 'whatever password' },
      { origin: 'https://evil.example' },
    )
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ code: 'forbidden' })
  })

  it('answers unknown routes and methods with the Error body', async () => {
    const missing = await portalClient(server.origin).api('GET', '/nope')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ code: 'route_not_found' })
    const method = await portalClient(server.origin).api('PUT', '/signup', {})
    expect(method.status).toBe(405)
    expect(method.headers.get('allow')).toBe('POST')
  })

  it("refuses a demo key that names an account's sandbox (400 invalid_parameter)", async () => {
    nextHour()
    const client = portalClient(server.origin)
    const { body: account } = await client.signup('private@example.com')
    const answer = await api(server.origin, 'sandbox-free', `/v1/pets?__session=${account?.id}`)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ code: 'invalid_parameter' })
    const header = await api(server.origin, 'sandbox-free', '/v1/pets', {
      headers: { 'x-sandbox-session': String(account?.id) },
    })
    expect(header.status).toBe(400)
  })
})

describe('the admin and accounts (contract §22)', () => {
  it('lists accounts paged, makes enterprise keys with custom limits, and deletes an account (its keys 401 at once)', async () => {
    nextHour()
    const emails = ['p1@example.com', 'p2@example.com', 'p3@example.com']
    const clients = emails.map(() => portalClient(server.origin))
    const first = portalClient(server.origin)
    clients[0] = first
    for (const [i, client] of clients.entries()) await client.signup(emails[i] as string)
    const total = (await control(server.origin, 'GET', '/accounts?limit=100')).body.total as number
    const seen: string[] = []
    let next: string | null = '/accounts?limit=2'
    while (next !== null) {
      const page = await control(server.origin, 'GET', next)
      expect(page.status).toBe(200)
      expect(page.body.accounts.length).toBeLessThanOrEqual(2)
      for (const a of page.body.accounts)
        expect(Object.keys(a).sort()).toEqual(['createdAt', 'email', 'id'])
      seen.push(...page.body.accounts.map((a: { email: string }) => a.email))
      next = page.body.next === null ? null : String(page.body.next).slice('/__sandbox'.length)
    }
    expect(seen).toHaveLength(total)
    expect(seen).toEqual(expect.arrayContaining(emails))
    expect((await control(server.origin, 'GET', '/accounts?limit=0')).status).toBe(400)
    expect((await control(server.origin, 'GET', '/accounts?limit=101')).status).toBe(400)

    const { body: me } = await first.refreshCsrf()
    const enterprise = await control(server.origin, 'POST', `/accounts/${me?.id}/keys`, ADMIN, {
      plan: 'enterprise',
      perMinute: 7,
      perDay: 70,
    })
    expect(enterprise.status).toBe(201)
    expect(enterprise.body).toMatchObject({
      plan: 'enterprise',
      limits: { perMinute: 7, perDay: 70 },
    })
    const used = await api(server.origin, enterprise.body.key)
    expect(used.headers.get('x-ratelimit-limit')).toBe('7')
    const custom = await control(server.origin, 'POST', `/accounts/${me?.id}/keys`, ADMIN, {
      plan: 'pro',
      perMinute: 7,
    })
    expect(custom.status).toBe(400)
    const nobody = await control(
      server.origin,
      'POST',
      '/accounts/acct_000000000000000000000000/keys',
      ADMIN,
      {
        plan: 'enterprise',
      },
    )
    expect(nobody.status).toBe(404)
    expect(nobody.body).toMatchObject({ code: 'account_not_found' })

    expect((await control(server.origin, 'DELETE', `/accounts/${me?.id}`)).status).toBe(204)
    expect((await api(server.origin, enterprise.body.key)).status).toBe(401)
    expect((await first.api('GET', '/me')).status).toBe(401)
    const gone = await control(server.origin, 'DELETE', `/accounts/${me?.id}`)
    expect(gone.status).toBe(404)
    expect(gone.body).toMatchObject({ code: 'account_not_found' })
  })

  it('invite mode: sign-up needs a code from the admin, good for one sign-up', async () => {
    const invited = await startAccountsServer({ accounts: 'invite' })
    try {
      const without = await portalClient(invited.origin).signup('new@example.com')
      expect(without.status).toBe(403)
      expect(without.body).toMatchObject({ code: 'invite_required' })
      const made = await control(invited.origin, 'POST', '/invites')
      expect(made.status).toBe(201)
      const code = String(made.body.code)
      const bad = await portalClient(invited.origin).api('POST', '/signup', {
        email: 'new@example.com',
        password: 'a long passphrase 1',
        invite: 'inv_wrong',
      })
      expect(bad.status).toBe(403)
      expect(bad.body).toMatchObject({ code: 'invite_invalid' })
      const ok = await portalClient(invited.origin).api('POST', '/signup', {
        email: 'new@example.com',
        password: 'a long passphrase 1',
        invite: code,
      })
      expect(ok.status).toBe(201)
      const reused = await portalClient(invited.origin).api('POST', '/signup', {
        email: 'other@example.com',
        password: 'a long passphrase 1',
        invite: code,
      })
      expect(reused.status).toBe(403)
      expect(reused.body).toMatchObject({ code: 'invite_invalid' })
    } finally {
      await invited.close()
    }
  })

  it("answers the account routes 404 with accounts off, and invites are the admin's only", async () => {
    const plain = await startAccountsServer({ accounts: undefined })
    try {
      const answer = await control(plain.origin, 'GET', '/accounts')
      expect(answer.status).toBe(404)
      expect(answer.body.message).toMatch(/--accounts/)
      expect((await fetch(`${plain.origin}/portal/api/me`)).status).toBe(404)
    } finally {
      await plain.close()
    }
  })

  it('refuses accounts without an admin token', async () => {
    await expect(startAccountsServer({ adminToken: undefined })).rejects.toThrow(/admin token/)
  })
})
