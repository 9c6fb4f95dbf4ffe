import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccountService } from '../../../src/server/accounts/account-service.js'
import { createMemoryAccountStore } from '../../../src/state/memory-account-store.js'
import { ADMIN, control, portalClient, startAccountsServer } from './account-helpers.js'

// A security review of accounts (contract §22): what one account holder may not reach.
let server: Awaited<ReturnType<typeof startAccountsServer>>
let key = ''

beforeAll(async () => {
  server = await startAccountsServer({ keys: { 'operator-partner-secret': 'enterprise' } })
  const mallory = portalClient(server.origin)
  await mallory.signup('mallory@example.com')
  key = String((await mallory.api('POST', '/keys', { name: 'm', plan: 'free' })).body?.key)
})
afterAll(() => server.close())

describe('an account holder and the keys of the operator', () => {
  it("never reads a key of the server's options through GET /__sandbox/keys", async () => {
    const listed = await control(server.origin, 'GET', '/keys', key)
    expect(listed.status).toBe(200)
    expect(JSON.stringify(listed.body)).not.toContain('operator-partner-secret')
    // The admin still sees its own configuration whole.
    const admin = await control(server.origin, 'GET', '/keys', ADMIN)
    expect(JSON.stringify(admin.body)).toContain('operator-partner-secret')
  })
})

describe('the log-in throttle', () => {
  it('holds against concurrent guesses: at most 10 are checked, the others answer 429', async () => {
    const own = await startAccountsServer()
    try {
      await portalClient(own.origin).signup('victim@example.com', 'the right passphrase')
      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          portalClient(own.origin).api('POST', '/login', {
            email: 'victim@example.com',
            password: `wrong guess number ${i}`,
          }),
        ),
      )
      const statuses = guesses.map((g) => g.status)
      expect(statuses.filter((s) => s === 401)).toHaveLength(10)
      expect(statuses.filter((s) => s === 429)).toHaveLength(20)
      // A success gives its count back: ten good log-ins in a minute never lock the holder out.
      const fresh = await startAccountsServer()
      try {
        await portalClient(fresh.origin).signup('holder@example.com', 'the right passphrase')
        for (let i = 0; i < 12; i++) {
          const ok = await portalClient(fresh.origin).api('POST', '/login', {
            email: 'holder@example.com',
            password: 'the right passphrase',
          })
          expect(ok.status).toBe(204)
        }
      } finally {
        await fresh.close()
      }
    } finally {
      await own.close()
    }
  })
})

describe('emails in Unicode', () => {
  it('are one account whichever normalization form they come in', async () => {
    const composed = 'jos\u00e9@example.com'
    const decomposed = 'jose\u0301@example.com'
    expect((await portalClient(server.origin).signup(composed)).status).toBe(201)
    const again = await portalClient(server.origin).signup(decomposed)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('email_taken')
    const login = await portalClient(server.origin).api('POST', '/login', {
      email: decomposed.toUpperCase(),
      password: 'a long passphrase 1',
    })
    expect(login.status).toBe(204)
  })
})

describe('the log-in throttle and made-up emails', () => {
  it('makes no counter of an email once the address is over its cap', async () => {
    const store = createMemoryAccountStore()
    const made: string[] = []
    const hit = store.hit.bind(store)
    store.hit = (counter, windowMs, now) => {
      made.push(counter)
      return hit(counter, windowMs, now)
    }
    const accounts = createAccountService({ store, mode: 'open', now: () => 1_000_000 })
    const attempt = (email: string) =>
      accounts.login({ email, password: 'not the password' }, '198.51.100.7').then(
        () => 'in',
        (error: { code?: string }) => error.code,
      )
    for (let i = 0; i < 10; i++)
      expect(await attempt(`guess${i}@example.com`)).toBe('invalid_credentials')
    made.length = 0
    for (let i = 0; i < 50; i++)
      expect(await attempt(`flood${i}@example.com`)).toBe('rate_limit_exceeded')
    expect(made.filter((c) => c.startsWith('login-email:'))).toEqual([])
  })
})

describe('log-ins of one account', () => {
  it('are capped per account: signing in over and over never signs anyone else out', async () => {
    const store = createMemoryAccountStore()
    const at = 1_000_000
    const login = (accountId: string) => ({ accountId, expiresAt: at + 60_000 })
    store.addLogin('victim-login', login('acct_victim'), 20)
    // One account signing in 100,001 times (the store's whole room) once pushed the victim's out.
    for (let i = 0; i < 100_001; i++) store.addLogin(`mine-${i}`, login('acct_mallory'), 20)
    expect(store.login('victim-login', at)).toBeDefined()
    // The account's newest log-ins live, its oldest are signed out.
    expect(store.login('mine-100000', at)).toBeDefined()
    expect(store.login('mine-99981', at)).toBeDefined()
    expect(store.login('mine-99980', at)).toBeUndefined()
    expect(store.login('mine-0', at)).toBeUndefined()
  })
})

describe('an invite-only sandbox', () => {
  it('tells nobody without a valid invite which emails have accounts', async () => {
    const own = await startAccountsServer({ accounts: 'invite' })
    try {
      const invite = async () =>
        String((await control(own.origin, 'POST', '/invites', ADMIN)).body?.code)
      const first = await portalClient(own.origin).call('POST', '/portal/api/signup', {
        email: 'member@example.com',
        password: 'a long passphrase 1',
        invite: await invite(),
      })
      expect(first.status).toBe(201)
      const probe = await portalClient(own.origin).call('POST', '/portal/api/signup', {
        email: 'member@example.com',
        password: 'a long passphrase 1',
        invite: 'inv_made_up',
      })
      expect(probe.status).toBe(403)
      expect(probe.body.code).toBe('invite_invalid')
      // With a valid invite the email is taken, and the invite is given back for another sign-up.
      const code = await invite()
      const taken = await portalClient(own.origin).call('POST', '/portal/api/signup', {
        email: 'member@example.com',
        password: 'a long passphrase 1',
        invite: code,
      })
      expect(taken.body.code).toBe('email_taken')
      const other = await portalClient(own.origin).call('POST', '/portal/api/signup', {
        email: 'other@example.com',
        password: 'a long passphrase 1',
        invite: code,
      })
      expect(other.status).toBe(201)
    } finally {
      await own.close()
    }
  })
})
