import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, api, control, portalClient, startAccountsServer } from './account-helpers.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'accounts-data-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const PASSWORD = 'a password nobody may read'

describe('accounts kept by --data (contract §22)', () => {
  it('keeps accounts, keys, rolls, revocations and the account sandbox across a restart, and the file holds no secret', async () => {
    const file = join(dir, 'restart.json')
    const first = await startAccountsServer({ dataFile: file })
    const client = portalClient(first.origin)
    const { body: account } = await client.signup('keeper@example.com', PASSWORD)
    const kept = await client.api('POST', '/keys', { name: 'kept', plan: 'pro' })
    const revoked = await client.api('POST', '/keys', { name: 'revoked', plan: 'free' })
    const rolled = await client.api('POST', '/keys', { name: 'rolled', plan: 'free' })
    await client.api('DELETE', `/keys/${revoked.body.id}`)
    const roll = await client.api('POST', `/keys/${rolled.body.id}/roll`, { expiresInS: 600 })
    const invite = await control(first.origin, 'POST', '/invites')
    const created = await api(first.origin, kept.body.key, '/v1/pets', {
      method: 'POST',
      body: { name: 'Survivor', categoryId: 2 },
    })
    expect(created.status).toBe(201)
    const now = first.clock.now
    await first.close()

    const text = await readFile(file, 'utf8')
    // No key, no password, no invite code, no cookie in the file: digests and prefixes only.
    for (const secret of [
      kept.body.key,
      revoked.body.key,
      rolled.body.key,
      roll.body.key,
      PASSWORD,
      invite.body.code,
      client.cookie?.split('=')[1],
      client.csrf,
    ])
      expect(text).not.toContain(String(secret))
    const parsed = JSON.parse(text)
    expect(parsed.version).toBe(4)
    // The log-in is kept as the SHA-256 of the cookie's value, with its account and end only.
    const cookieToken = String(client.cookie?.split('=')[1])
    expect(parsed.accounts.logins).toEqual([
      {
        hash: createHash('sha256').update(cookieToken).digest('hex'),
        accountId: account.id,
        expiresAt: now + 7 * 86_400_000,
      },
    ])
    expect(parsed.accounts.accounts[0].passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(parsed.accounts.keys.every((k: { hash: string }) => /^[0-9a-f]{64}$/.test(k.hash))).toBe(
      true,
    )

    const second = await startAccountsServer({ dataFile: file })
    try {
      second.clock.now = now
      // The log-in survives the restart: the same cookie, the same CSRF token, writes work.
      const still = portalClient(second.origin)
      still.cookie = client.cookie
      expect((await still.refreshCsrf()).body).toMatchObject({ id: account.id })
      expect(still.csrf).toBe(client.csrf)
      const made = await still.api('POST', '/keys', { name: 'after', plan: 'free' })
      expect(made.status).toBe(201)
      expect((await still.api('DELETE', `/keys/${made.body.id}`)).status).toBe(204)
      // The account signs in again with its password; its keys are as they were.
      const again = portalClient(second.origin)
      expect(
        (await again.api('POST', '/login', { email: 'keeper@example.com', password: PASSWORD }))
          .status,
      ).toBe(204)
      await again.refreshCsrf()
      const names = (await again.api('GET', '/keys')).body.map((k: { name: string }) => k.name)
      expect(names.sort()).toEqual(['kept', 'rolled', 'rolled'])
      const pets = await api(second.origin, kept.body.key, '/v1/pets?limit=100')
      expect(pets.status).toBe(200)
      expect(pets.body.map((p: { name: string }) => p.name)).toContain('Survivor')
      expect((await api(second.origin, revoked.body.key)).status).toBe(401)
      expect((await api(second.origin, rolled.body.key)).status).toBe(200)
      second.clock.now += 600_000
      expect((await api(second.origin, rolled.body.key)).status).toBe(401)
      expect((await api(second.origin, roll.body.key)).status).toBe(200)
      const accounts = await control(second.origin, 'GET', '/accounts')
      expect(accounts.body.accounts.map((a: { id: string }) => a.id)).toEqual([account.id])
    } finally {
      await second.close()
    }
  })

  it('keeps a portal log-in across restarts until it ends, is signed out, or its account is deleted', async () => {
    const file = join(dir, 'logins.json')
    const first = await startAccountsServer({ dataFile: file })
    const start = first.clock.now
    const stays = portalClient(first.origin)
    await stays.signup('stays@example.com', PASSWORD)
    const leaves = portalClient(first.origin)
    expect(
      (await leaves.api('POST', '/login', { email: 'stays@example.com', password: PASSWORD }))
        .status,
    ).toBe(204)
    await leaves.refreshCsrf()
    const deleted = portalClient(first.origin)
    const { body: gone } = await deleted.signup('deleted@example.com', PASSWORD)
    const tokens = [stays, leaves, deleted].map((c) => String(c.cookie?.split('=')[1]))
    const digest = (token: string) => createHash('sha256').update(token).digest('hex')
    const keptLogins = async () =>
      (JSON.parse(await readFile(file, 'utf8')).accounts.logins as { hash: string }[]).map(
        (l) => l.hash,
      )
    expect(await keptLogins()).toEqual(tokens.map(digest))
    // A log-out and an account's deletion leave the file before their answer.
    expect((await leaves.api('POST', '/logout')).status).toBe(204)
    expect((await control(first.origin, 'DELETE', `/accounts/${gone.id}`)).status).toBe(204)
    const [staysToken = ''] = tokens
    expect(await keptLogins()).toEqual([digest(staysToken)])
    await first.close()

    const meWith = async (origin: string, from: ReturnType<typeof portalClient>) => {
      const client = portalClient(origin)
      client.cookie = from.cookie
      return (await client.api('GET', '/me')).status
    }
    // A restart a millisecond before the log-in's 7 days end: it signs in; the others do not.
    const second = await startAccountsServer({ dataFile: file })
    second.clock.now = start + 7 * 86_400_000 - 1
    try {
      expect(await meWith(second.origin, stays)).toBe(200)
      expect(await meWith(second.origin, leaves)).toBe(401)
      expect(await meWith(second.origin, deleted)).toBe(401)
    } finally {
      await second.close()
    }
    // A restart once they ended: not loaded, 401.
    const third = await startAccountsServer({
      dataFile: file,
      now: () => start + 7 * 86_400_000,
    })
    try {
      expect(await meWith(third.origin, stays)).toBe(401)
    } finally {
      await third.close()
    }
  })

  it('loads a version 4 file as main wrote it before log-ins were kept (545630b), and keeps log-ins from then on', async () => {
    // Written by main at 545630b's build: sign-up of main@example.com, one key made.
    const file = join(dir, 'main-v4.json')
    await writeFile(
      file,
      `{"version":4,"nextId":1,"pets":[
],"accounts":{"accounts":[
{"id":"acct_abc6764955f7f2f6c97d6fc1","email":"main@example.com","passwordHash":"scrypt$32768$8$1$ujPpMzxUwudEYiBieEhgOg$F-qA7dLf2O32RARD1o59CWMapreBP2ezkkevouGxiAw","createdAt":1893456000000}
],
"keys":[
{"id":"key_717bd7f0de1304ef","accountId":"acct_abc6764955f7f2f6c97d6fc1","name":"from main","plan":"free","limits":{"perMinute":60,"perDay":1000},"prefix":"sk_acct_7c0c","hash":"db94e935507ca63a8baf5e40cb60fcb79492a3dea4012cf55b39f737456fdcb0","createdAt":1893456000000,"lastUsedAt":null,"expiresAt":null}
],
"invites":[]}}
`,
    )
    const server = await startAccountsServer({ dataFile: file })
    try {
      const key = 'sk_acct_7c0c5b1e8479cb65a7fe67739e846c6a0dd07d61c5927bae'
      expect((await api(server.origin, key)).status).toBe(200)
      const client = portalClient(server.origin)
      expect(
        (
          await client.api('POST', '/login', {
            email: 'main@example.com',
            password: 'written by main 545630b',
          })
        ).status,
      ).toBe(204)
      const written = JSON.parse(await readFile(file, 'utf8'))
      expect(written.version).toBe(4)
      expect(written.accounts.logins).toHaveLength(1)
      expect(written.accounts.keys[0].hash).toBe(createHash('sha256').update(key).digest('hex'))
    } finally {
      await server.close()
    }
  })

  it('still loads a version 3 file (no accounts) and writes it back as version 4', async () => {
    const file = join(dir, 'old.json')
    await writeFile(
      file,
      `${JSON.stringify({ version: 3, nextId: 2, pets: [{ id: 1, name: 'Old', categoryId: 1, status: 'available' }] })}\n`,
    )
    const server = await startAccountsServer({ dataFile: file })
    try {
      expect(
        (await api(server.origin, 'sandbox-free')).body.map((p: { name: string }) => p.name),
      ).toEqual(['Old'])
      await portalClient(server.origin).signup('upgrade@example.com')
    } finally {
      await server.close()
    }
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(4)
  })

  it('refuses a data file whose accounts hold a key in clear (not a digest), and leaves it untouched', async () => {
    const file = join(dir, 'bad.json')
    const text = `${JSON.stringify({
      version: 4,
      nextId: 1,
      pets: [],
      accounts: { accounts: [], keys: [{ hash: 'sk_acct_plain' }], invites: [] },
    })}\n`
    await writeFile(file, text)
    await expect(startAccountsServer({ dataFile: file })).rejects.toThrow(/accounts\.keys/)
    expect(await readFile(file, 'utf8')).toBe(text)
  })
})

describe("an account's budgets and its sandbox's lifetime (contract §22)", () => {
  it('keeps the newest 1,000 journal entries of an account (the oldest go first)', async () => {
    const server = await startAccountsServer()
    try {
      const client = portalClient(server.origin)
      const { body: account } = await client.signup('busy@example.com')
      const key = await control(server.origin, 'POST', `/accounts/${account.id}/keys`, ADMIN, {
        plan: 'enterprise',
        perMinute: 100_000,
        perDay: 100_000,
      })
      for (let batch = 0; batch < 10; batch++)
        await Promise.all(
          Array.from({ length: batch === 9 ? 101 : 100 }, (_, i) =>
            api(server.origin, key.body.key, `/v1/pets?limit=${((batch * 100 + i) % 100) + 1}`),
          ),
        )
      const journal = await control(server.origin, 'GET', '/requests', key.body.key)
      expect(journal.body).toHaveLength(1_000)
      const seqs = journal.body.map((e: { seq: number }) => e.seq)
      expect(Math.min(...seqs)).toBe(2)
      expect(Math.max(...seqs)).toBe(1_001)
    } finally {
      await server.close()
    }
  })

  it('holds at most 10,000 pets in an account sandbox: the 10,000th is made, the next is 409 store_full', async () => {
    const server = await startAccountsServer()
    try {
      const client = portalClient(server.origin)
      const { body: account } = await client.signup('full@example.com')
      const key = (await client.api('POST', '/keys', { name: 'k', plan: 'business' })).body.key
      expect((await api(server.origin, key)).status).toBe(200)
      const pets = Array.from({ length: 9_999 }, (_, i) => ({
        id: i + 1,
        name: `Pet ${i + 1}`,
        categoryId: 1,
        status: 'available' as const,
      }))
      await server.app.sandbox.session(account.id).db.pets.load({ nextId: 10_000, pets })
      const last = await api(server.origin, key, '/v1/pets', {
        method: 'POST',
        body: { name: 'Last', categoryId: 1 },
      })
      expect(last.status).toBe(201)
      const over = await api(server.origin, key, '/v1/pets', {
        method: 'POST',
        body: { name: 'Over', categoryId: 1 },
      })
      expect(over.status).toBe(409)
      expect(over.body).toMatchObject({ code: 'store_full', status: 409 })
      expect((await control(server.origin, 'POST', '/reset', key)).status).toBe(204)
      expect(
        (
          await api(server.origin, key, '/v1/pets', {
            method: 'POST',
            body: { name: 'Again', categoryId: 1 },
          })
        ).status,
      ).toBe(201)
    } finally {
      await server.close()
    }
  })

  it("drops an account's sandbox data after 30 days unused (by the clock), never the account or its keys", async () => {
    const server = await startAccountsServer()
    try {
      const client = portalClient(server.origin)
      await client.signup('idle@example.com')
      const key = (await client.api('POST', '/keys', { name: 'k', plan: 'free' })).body.key
      await api(server.origin, key, '/v1/pets', {
        method: 'POST',
        body: { name: 'Remembered', categoryId: 1 },
      })
      const names = async () =>
        (await api(server.origin, key, '/v1/pets?limit=100')).body.map(
          (p: { name: string }) => p.name,
        )
      server.clock.now += 30 * 86_400_000 - 1
      expect(await names()).toContain('Remembered')
      server.clock.now += 30 * 86_400_000
      // Any request sweeps; the account's next one finds a fresh sandbox.
      await api(server.origin, 'sandbox-free')
      expect(await names()).not.toContain('Remembered')
      expect((await api(server.origin, key)).status).toBe(200)
    } finally {
      await server.close()
    }
  })
})
