import { connect } from 'node:net'
import { HttpResponse, http } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newRequestId } from '../../src/journal/request-id.js'
import { setupSandbox } from '../../src/runtimes/node.js'
import { createSandboxServer } from '../../src/server/create-sandbox-server.js'
import { startSandboxUpstream, type UpstreamProcess } from '../support/upstream-processes.js'
import { killAllChildren } from './spawn-cli.js'

// Contract §22: every answer, in every mode, carries `Request-Id: req_<unique>`;
// the journal keeps it (and the HAR), and `?requestId=` finds the entry.
const ID = /^req_[0-9a-f]{24}$/
const FREE = { authorization: 'Bearer sandbox-free' }

interface Entry {
  requestId?: string
  url: string
  status: number | null
  response: { headers: Record<string, string> } | null
}

let upstream: UpstreamProcess
const app = createSandboxServer({
  keys: { 'tiny-key': { plan: 'enterprise', perMinute: 1, perDay: 100 } },
  handlers: [http.get('http://*/mine', () => HttpResponse.json({ mine: true }))],
})
let front: ReturnType<typeof createSandboxServer> | undefined
let origin = ''

beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
  upstream = await startSandboxUpstream(['--seed', '7'])
}, 60_000)
afterAll(async () => {
  await app.close()
  await front?.close()
  await upstream?.stop()
  killAllChildren()
})

const journal = async (query = ''): Promise<Entry[]> =>
  (await (await fetch(`${origin}/__sandbox/requests${query}`)).json()) as Entry[]

describe('Request-Id on the standalone server', () => {
  it('is on every kind of answer, a new one each time', async () => {
    await fetch(`${origin}/__sandbox/reset`, { method: 'POST' })
    const answers = [
      await fetch(`${origin}/v1/pets?limit=2`, { headers: FREE }),
      await fetch(`${origin}/v1/pets/1`, { method: 'HEAD', headers: FREE }),
      await fetch(`${origin}/v1/pets`, { method: 'OPTIONS', headers: FREE }),
      await fetch(`${origin}/v1/pets`),
      await fetch(`${origin}/v1/pets?limit=x`, { headers: FREE }),
      await fetch(`${origin}/v1/nowhere`, { headers: FREE }),
      await fetch(`${origin}/v1/pets?__scenario=server-error`, { headers: FREE }),
      await fetch(`${origin}/v1/pets?__scenario=proxy-error`, { headers: FREE }),
      await fetch(`${origin}/v1/pets?__scenario=malformed-json`, { headers: FREE }),
      await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer tiny-key' } }),
      await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer tiny-key' } }),
      await fetch(`${origin}/__sandbox/clock`),
      await fetch(`${origin}/__sandbox/`),
      await fetch(`${origin}/__sandbox/nowhere`),
      await fetch(`${origin}/mine`),
      await fetch(`${origin}/elsewhere`),
    ]
    for (const answer of answers) await answer.arrayBuffer()
    expect(answers.map((a) => a.status)).toEqual([
      200, 200, 204, 401, 400, 404, 500, 502, 200, 200, 429, 200, 200, 404, 200, 404,
    ])
    const ids = answers.map((a) => a.headers.get('request-id'))
    for (const id of ids) expect(id).toMatch(ID)
    expect(new Set(ids).size).toBe(ids.length)
    // The API's answers (the first eleven) are journaled under their ids, the header with them.
    const entries = await journal()
    expect(entries.map((e) => e.requestId)).toEqual(ids.slice(0, 11))
    for (const entry of entries) expect(entry.response?.headers['request-id']).toBe(entry.requestId)
  })

  it('finds one entry by its id; nothing for an unknown one; 400 for a malformed or repeated one', async () => {
    const answer = await fetch(`${origin}/v1/pets?limit=1&find=me`, { headers: FREE })
    const id = answer.headers.get('request-id') as string
    const found = await journal(`?requestId=${id}`)
    expect(found).toHaveLength(1)
    expect(found[0]?.url).toContain('find=me')
    // With the other filters: they all have to match.
    expect(await journal(`?requestId=${id}&method=GET&status=200`)).toHaveLength(1)
    expect(await journal(`?requestId=${id}&method=POST`)).toEqual([])
    expect(await journal(`?requestId=${newRequestId()}`)).toEqual([])
    // Another session's journal does not hold it.
    expect(await journal(`?requestId=${id}&__session=elsewhere`)).toEqual([])
    for (const query of [
      '?requestId=',
      '?requestId=REQ_abc',
      '?requestId=req_%F0%9F%90%B6',
      `?requestId=req_${'a'.repeat(65)}`,
      `?requestId=${id}&requestId=${id}`,
    ]) {
      const refused = await fetch(`${origin}/__sandbox/requests${query}`)
      expect(refused.status, query).toBe(400)
      expect(refused.headers.get('request-id')).toMatch(ID)
      const body = (await refused.json()) as { code: string; details: { field: string }[] }
      expect(body.code).toMatch(/^(invalid_parameter|repeated_parameter)$/)
      expect(body.details[0]?.field).toBe('requestId')
    }
  })

  it('keeps it in the HAR as a response header', async () => {
    const answer = await fetch(`${origin}/v1/pets?limit=1&har=1`, { headers: FREE })
    const id = answer.headers.get('request-id')
    const har = (await (await fetch(`${origin}/__sandbox/requests.har`)).json()) as {
      log: { entries: { response: { headers: { name: string; value: string }[] } }[] }
    }
    const last = har.log.entries.at(-1)
    expect(last?.response.headers).toContainEqual({ name: 'request-id', value: id })
  })

  it('is exposed to browser code on another origin', async () => {
    const answer = await fetch(`${origin}/v1/pets?limit=1`, {
      headers: { ...FREE, origin: 'https://app.example' },
    })
    expect(answer.headers.get('access-control-expose-headers')).toContain('Request-Id')
  })

  it("is on the server's own error for a request node cannot parse", async () => {
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(origin).port), '127.0.0.1', () => {
        socket.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n')
      })
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk.toString()
      })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(head).toMatch(/^HTTP\/1\.1 400 /)
    expect(head).toMatch(/\r\nRequest-Id: req_[0-9a-f]{24}\r\n/)
  })

  it("replaces an upstream's own Request-Id with the sandbox's, and journals it (upstream mode)", async () => {
    front = createSandboxServer({ upstream: upstream.url })
    const frontOrigin = (await front.listen(0, '127.0.0.1')).url
    const answer = await fetch(`${frontOrigin}/v1/pets?limit=1`, { headers: FREE })
    await answer.arrayBuffer()
    expect(answer.status).toBe(200)
    const id = answer.headers.get('request-id') as string
    expect(id).toMatch(ID)
    // One Request-Id line: the upstream (another sandbox) sent its own, which is not passed on.
    expect(id).not.toContain(',')
    const found = (await (
      await fetch(`${frontOrigin}/__sandbox/requests?requestId=${id}`)
    ).json()) as (Entry & { source: string })[]
    expect(found).toHaveLength(1)
    expect(found[0]?.source).toBe('upstream')
  })
})

describe('Request-Id in the MSW runtime', () => {
  it('is on the answer and in the journal', async () => {
    const sandbox = setupSandbox({ baseUrl: 'http://api.example.test/v1' })
    sandbox.listen()
    try {
      const answer = await fetch('http://api.example.test/v1/pets?limit=1', { headers: FREE })
      const refused = await fetch('http://api.example.test/v1/pets')
      const ids = [answer.headers.get('request-id'), refused.headers.get('request-id')]
      for (const id of ids) expect(id).toMatch(ID)
      expect(ids[0]).not.toBe(ids[1])
      const entries = await sandbox.journal.list()
      expect(entries.map((e) => e.requestId)).toEqual(ids)
    } finally {
      sandbox.close()
    }
  })
})

describe('newRequestId', () => {
  it('makes 100,000 distinct ids of req_ and 24 hex digits', () => {
    const ids = new Set<string>()
    for (let i = 0; i < 100_000; i++) ids.add(newRequestId())
    expect(ids.size).toBe(100_000)
    for (const id of [...ids].slice(0, 1000)) expect(id).toMatch(ID)
    // Every hex digit shows up in every position (the bits reach every digit).
    for (let position = 4; position < 28; position++)
      expect(new Set([...ids].slice(0, 1000).map((id) => id[position])).size).toBe(16)
  })
})
