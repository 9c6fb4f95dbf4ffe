import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from '../../server/spawn-cli.js'
import { startTestRedis, type TestRedis } from '../../support/redis-server.js'

// Contract: a control call made after an answer finds that request's journal
// entry. On Redis an instance holds its entries for a moment and writes them in
// one batch; every read first has every live instance write what it holds
// (decision 0069), so a look finds the entry however many requests the
// instances answer at once, through the instance that answered or another.
// In processes of their own, as deployed.
let redis: TestRedis
let origins: string[] = []

beforeAll(async () => {
  redis = await startTestRedis()
  // A small budget keeps each look cheap (it reads the session's whole journal).
  const args = ['--port', '0', '--quiet', '--journal-max-entries', '120']
  args.push('--store', redis.url, '--store-prefix', 'after-answer:')
  origins = await Promise.all([serverOrigin(spawnCli(args)), serverOrigin(spawnCli(args))])
}, 60_000)
afterAll(async () => {
  killAllChildren()
  await redis?.dispose()
})

const KEY = { authorization: 'Bearer sandbox-enterprise' }

/** Requests to `answering`, each followed at once by a look for its entry through `reading`. */
const answerThenFind = async (answering: string, reading: string, session: string) => {
  const missing: string[] = []
  // Many at once: the answering instance journals them in batches, while it answers others.
  await Promise.all(
    Array.from({ length: 40 }, async (_, client) => {
      for (let i = 0; i < 10; i++) {
        const answer = await fetch(
          `${answering}/v1/pets?limit=20&c=${client}&__session=${session}`,
          {
            headers: KEY,
          },
        )
        await answer.arrayBuffer()
        const id = answer.headers.get('request-id') as string
        const look = await fetch(
          `${reading}/__sandbox/requests?requestId=${id}&__session=${session}`,
        )
        expect(look.status).toBe(200)
        const found = (await look.json()) as { requestId: string }[]
        if (found.length !== 1 || found[0]?.requestId !== id) missing.push(id)
      }
    }),
  )
  return missing
}

describe('the journal on Redis, right after an answer', () => {
  it('holds the entry for a control call through the instance that answered', async () => {
    expect(await answerThenFind(origins[0] as string, origins[0] as string, 'same')).toEqual([])
  })

  it('holds the entry for a control call through another instance', async () => {
    expect(await answerThenFind(origins[0] as string, origins[1] as string, 'other')).toEqual([])
  })
})
