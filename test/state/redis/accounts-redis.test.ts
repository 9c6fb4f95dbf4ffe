import { Cluster, Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, portalClient, startAccountsServer } from '../../server/accounts/account-helpers.js'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Contract §22 on a shared store (decision 0062): two server instances on one real
// redis-server, and on a real Redis Cluster (three masters, three replicas): an account
// and its keys made through one work through the other at once; a revoke or a roll through
// one answers 401 through the other at once; the store holds no key and no password in clear.
type Instance = Awaited<ReturnType<typeof startAccountsServer>>

/** Every key of the store and its value as text (strings, hashes, sets, sorted sets). */
const dumpStore = async (clients: Redis[]): Promise<string> => {
  const lines: string[] = []
  for (const client of clients) {
    for (const key of await client.keys('*')) {
      const type = await client.type(key)
      const value =
        type === 'string'
          ? await client.get(key)
          : type === 'hash'
            ? JSON.stringify(await client.hgetall(key))
            : type === 'set'
              ? JSON.stringify(await client.smembers(key))
              : type === 'zset'
                ? JSON.stringify(await client.zrange(key, '0', '-1'))
                : type === 'list'
                  ? JSON.stringify(await client.lrange(key, 0, -1))
                  : type === 'stream'
                    ? JSON.stringify(await client.xrange(key, '-', '+'))
                    : `(${type})`
      lines.push(`${key} ${value}`)
    }
  }
  return lines.join('\n')
}

const defineSuite = (
  name: string,
  start: () => Promise<{ url: string; dump: () => Promise<string>; stop: () => Promise<void> }>,
) =>
  describe(name, () => {
    let store: Awaited<ReturnType<typeof start>>
    let a: Instance
    let b: Instance
    beforeAll(async () => {
      store = await start()
      a = await startAccountsServer({ store: store.url })
      b = await startAccountsServer({ store: store.url })
    }, 90_000)
    afterAll(async () => {
      await a?.close()
      await b?.close()
      await store?.stop()
    })

    it('an account and a key made through A work through B at once; a revoke through A is 401 through B at once', async () => {
      const password = 'correct horse battery staple 42'
      const email = `dev-${Date.now()}@example.com`
      const onA = portalClient(a.origin)
      expect((await onA.signup(email, password)).status).toBe(201)
      // B knows the account at once: the same email is taken there, and its password logs in.
      const onB = portalClient(b.origin)
      expect((await onB.api('POST', '/signup', { email, password })).status).toBe(409)
      expect((await onB.api('POST', '/login', { email, password })).status).toBe(204)
      await onB.refreshCsrf()
      const made = await onA.api('POST', '/keys', { name: 'CI', plan: 'pro' })
      expect(made.status).toBe(201)
      const key = String(made.body.key)
      // Through B at once: the API, and the key in B's list.
      const created = await api(b.origin, key, '/v1/pets', {
        method: 'POST',
        body: { name: 'Shared', categoryId: 1 },
      })
      expect(created.status).toBe(201)
      expect((await api(a.origin, key, `/v1/pets/${created.body.id}`)).status).toBe(200)
      const listed = await onB.api('GET', '/keys')
      expect(listed.body.map((k: { id: string }) => k.id)).toEqual([made.body.id])
      // Rolled through B: the old key is refused through A at once, the new one works there.
      const rolled = await onB.api('POST', `/keys/${made.body.id}/roll`)
      expect(rolled.status).toBe(201)
      expect((await api(a.origin, key)).status).toBe(401)
      const fresh = String(rolled.body.key)
      expect((await api(a.origin, fresh)).status).toBe(200)
      // Revoked through A: 401 through B at once.
      expect((await onA.api('DELETE', `/keys/${rolled.body.id}`)).status).toBe(204)
      expect((await api(b.origin, fresh)).status).toBe(401)
      // The dump of every key and value of the store: neither key nor the password.
      const dump = await store.dump()
      expect(dump).toContain('{~acct}')
      expect(dump).toContain(email)
      // Nor a portal cookie or its CSRF token: a log-in is kept by the cookie's digest only.
      const cookies = [onA, onB].map((c) => String(c.cookie?.split('=')[1]))
      const csrfs = [onA, onB].map((c) => String(c.csrf))
      for (const secret of [key, fresh, password, ...cookies, ...csrfs])
        expect(dump).not.toContain(secret)
      expect(dump).not.toContain(key.slice(-12))
    })

    it('keeps the 10-live-keys cap exact under concurrent makes through both instances', async () => {
      const client = portalClient(a.origin)
      expect((await client.signup(`cap-${Date.now()}@example.com`)).status).toBe(201)
      const other = portalClient(b.origin)
      other.cookie = client.cookie
      other.csrf = client.csrf
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 === 0 ? client : other).api('POST', '/keys', { name: `k${i}`, plan: 'free' }),
        ),
      )
      const statuses = answers.map((x) => x.status)
      expect(statuses.filter((s) => s === 201)).toHaveLength(10)
      expect(statuses.filter((s) => s === 409)).toHaveLength(6)
    })

    it('counts failed log-ins exactly across instances, and keeps at most 20 log-ins an account', async () => {
      const password = 'correct horse battery staple 42'
      const email = `throttle-${Date.now()}@example.com`
      expect((await portalClient(a.origin).signup(email, password)).status).toBe(201)
      // 20 log-ins through both instances, then one more: the account's oldest is signed out.
      const first = portalClient(a.origin)
      expect((await first.api('POST', '/login', { email, password })).status).toBe(204)
      expect((await first.api('GET', '/me')).status).toBe(200)
      for (let i = 0; i < 20; i += 1) {
        const next = portalClient(i % 2 === 0 ? b.origin : a.origin)
        expect((await next.api('POST', '/login', { email, password })).status).toBe(204)
      }
      expect((await first.api('GET', '/me')).status).toBe(401)
      // 30 wrong guesses at once through both: each counted before its check, so exactly 10
      // are checked (401) and the rest refused (429), whichever instance answers.
      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          portalClient(i % 2 === 0 ? a.origin : b.origin).api('POST', '/login', {
            email,
            password: `wrong password number ${i}`,
          }),
        ),
      )
      const statuses = guesses.map((x) => x.status)
      expect(statuses.filter((s) => s === 401)).toHaveLength(10)
      expect(statuses.filter((s) => s === 429)).toHaveLength(20)
    })
  })

defineSuite('accounts on one Redis, two instances', async () => {
  const redis: TestRedis = await startTestRedis()
  const client = new Redis(redis.url)
  return {
    url: redis.url,
    dump: () => dumpStore([client]),
    stop: async () => {
      client.disconnect()
      await redis.dispose()
    },
  }
})

defineSuite('accounts on a Redis Cluster, two instances', async () => {
  const cluster: TestCluster = await startTestCluster()
  const client = new Cluster(
    cluster.url
      .replace(/^redis\+cluster:\/\//, '')
      .split(',')
      .map((node) => ({ host: node.split(':')[0] as string, port: Number(node.split(':')[1]) })),
  )
  return {
    url: cluster.url,
    dump: async () => dumpStore(client.nodes('master')),
    stop: async () => {
      client.disconnect()
      await cluster.dispose()
    },
  }
})
