import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from '../server/spawn-cli.js'
import { startSandboxUpstream } from '../support/upstream-processes.js'
import { FREE, type Front, startFront } from './upstream-front.js'

// Record forwarded traffic from an upstream process, stop it, replay (issue 19 item 4).
let dir: string
const fronts: Front[] = []
const front = async (options: Parameters<typeof startFront>[0]): Promise<Front> => {
  const started = await startFront(options)
  fronts.push(started)
  return started
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-upstream-'))
})
afterAll(async () => {
  await Promise.all(fronts.map((f) => f.close()))
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

const NEW_PET = JSON.stringify({ name: 'Rex', categoryId: 3 })
const json = { ...FREE, 'content-type': 'application/json' }

/** status and body of each answer, in order. */
const exchange = async (f: Front, session = 'default'): Promise<[number, string][]> => {
  const q = session === 'default' ? '' : `?__session=${session}`
  const answers: Response[] = [
    await f.get(`/v1/pets/26${q}`),
    await f.send('POST', `/v1/pets${q}`, { headers: json, body: NEW_PET }),
    await f.get(`/v1/pets/26${q}`),
    await f.get(`/v1/pets?limit=2${q === '' ? '' : `&${q.slice(1)}`}`),
  ]
  return Promise.all(answers.map(async (r) => [r.status, await r.text()] as [number, string]))
}

describe('record, then replay with the upstream stopped', () => {
  it('records forwarded traffic as HAR 1.2 and replays each sequence in order, the last repeating', async () => {
    const upstream = await startSandboxUpstream(['--seed', '9'])
    const file = join(dir, 'staging.har')
    const recorder = await front({ upstream: { url: upstream.url, record: file } })
    const recorded = await exchange(recorder)
    expect(recorded.map(([status]) => status)).toEqual([404, 201, 200, 200])
    // A scenario answered here is not forwarded, so not recorded.
    await recorder.get('/v1/pets?__scenario=empty')
    await recorder.close()
    await upstream.stop()

    const har = JSON.parse(readFileSync(file, 'utf8'))
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries).toHaveLength(4)
    const [first] = har.log.entries
    expect(first.request.url).toBe(`${upstream.url}/pets/26`)
    expect(first.request.headers).toContainEqual({
      name: 'authorization',
      value: 'Bearer sand…(redacted)',
    })
    expect(first._violations).toEqual([])
    expect(first._sandbox).toMatchObject({ source: 'upstream', operation: 'getPet' })
    expect(JSON.stringify(har)).not.toContain('sandbox-free')

    const replay = await front({ upstream: { replay: file } })
    // The same requests get the same answers, in the recorded order.
    expect(await exchange(replay)).toEqual(recorded)
    // The last of a sequence repeats.
    const again = await replay.get('/v1/pets/26')
    expect([again.status, await again.text()]).toEqual(recorded[2])
    // Each session walks the recording on its own; `__` parameters are not part of a match.
    expect(await exchange(replay, 'w1')).toEqual(recorded)
    expect((await replay.journal()).map((e) => e.source)).toEqual(Array(5).fill('replay'))

    // What the recording lacks: 404 replay_miss naming it, or with the fallback, the sandbox.
    const miss = await replay.get('/v1/pets?limit=3&__scenario=default')
    expect(miss.status).toBe(404)
    const body = await miss.json()
    expect(body).toMatchObject({ code: 'replay_miss', status: 404 })
    expect(body.message).toContain('GET /v1/pets?limit=3')
    const otherBody = await replay.send('POST', '/v1/pets', {
      headers: json,
      body: '{"name":"Max"}',
    })
    expect((await otherBody.json()).code).toBe('replay_miss')

    const fallback = await front({ upstream: { replay: file, replayFallback: 'sandbox' } })
    const own = await fallback.get('/v1/pets?limit=3')
    expect(own.status).toBe(200)
    expect((await fallback.journal()).at(-1)).toMatchObject({ source: 'sandbox' })
    expect((await fallback.get('/v1/pets/26')).status).toBe(404)
  })

  it('answers a request without a Bearer key itself, and serves a recorded 401 only to its key (regression: replay ignored Authorization)', async () => {
    const upstream = await startSandboxUpstream(['--seed', '9'])
    const file = join(dir, 'keys.har')
    const recorder = await front({ upstream: { url: upstream.url, record: file } })
    // Forwarded in upstream mode: the upstream judges every key, and each answer is recorded.
    const asked = [
      {},
      { authorization: 'Token sandbox-free' },
      { authorization: 'Bearer nope' },
      FREE,
    ]
    const recorded = []
    for (const headers of asked) {
      const answer = await recorder.get('/v1/pets?limit=2', headers)
      recorded.push([answer.status, await answer.text()] as const)
    }
    expect(recorded.map(([status]) => status)).toEqual([401, 401, 401, 200])
    expect((await recorder.journal()).map((e) => e.source)).toEqual(Array(4).fill('upstream'))
    await recorder.close()
    await upstream.stop()

    const replay = await front({ upstream: { replay: file } })
    // Entries sent without a Bearer token are left out: the sandbox answers those requests.
    const mode = await (await fetch(`${replay.origin}/__sandbox/mode`)).json()
    expect(mode.replay).toEqual({ answers: 2, skipped: 2 })
    const missing = await replay.get('/v1/pets?limit=2', {})
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="petstore"')
    expect(await missing.json()).toMatchObject({ code: 'missing_api_key', status: 401 })
    const malformed = await replay.get('/v1/pets?limit=2', { authorization: 'Token sandbox-free' })
    expect(malformed.status).toBe(401)
    expect(await malformed.json()).toMatchObject({ code: 'malformed_authorization' })
    // A well-formed key gets the recording; the key that was refused gets its 401 back.
    const good = await replay.get('/v1/pets?limit=2')
    expect([good.status, await good.text()]).toEqual(recorded[3])
    const refused = await replay.get('/v1/pets?limit=2', { authorization: 'Bearer nope' })
    expect([refused.status, await refused.text()]).toEqual(recorded[2])
    const other = await replay.get('/v1/pets?limit=2', { authorization: 'Bearer sandbox-pro' })
    expect([other.status, await other.text()]).toEqual(recorded[3])
    expect((await replay.journal()).map((e) => [e.status, e.source])).toEqual([
      [401, 'sandbox'],
      [401, 'sandbox'],
      [200, 'replay'],
      [401, 'replay'],
      [200, 'replay'],
    ])
  })

  it('matches the query in any order and a JSON body whatever its whitespace', async () => {
    const upstream = await startSandboxUpstream(['--seed', '9'])
    const file = join(dir, 'order.har')
    const recorder = await front({ upstream: { url: upstream.url, record: file } })
    const listed = await (await recorder.get('/v1/pets?status=available&limit=2')).text()
    const created = await (
      await recorder.send('POST', '/v1/pets', { headers: json, body: NEW_PET })
    ).text()
    await recorder.close()
    await upstream.stop()
    const replay = await front({ upstream: { replay: file } })
    expect(await (await replay.get('/v1/pets?limit=2&status=available')).text()).toBe(listed)
    const spaced = JSON.stringify(JSON.parse(NEW_PET), null, 2)
    expect(
      await (await replay.send('POST', '/v1/pets', { headers: json, body: spaced })).text(),
    ).toBe(created)
  })

  it('replays a HAR exported by GET /__sandbox/requests.har', async () => {
    const source = await front({ seed: 3 })
    const answers = await exchange(source)
    const har = await (await fetch(`${source.origin}/__sandbox/requests.har`)).json()
    const replay = await front({ upstream: { replay: har } })
    expect(await exchange(replay)).toEqual(answers)
  })

  it('records with --record and replays with --replay from the CLI', async () => {
    const upstream = await startSandboxUpstream(['--seed', '9'])
    const file = join(dir, 'cli.har')
    const recorder = spawnCli(['--port', '0', '--upstream', upstream.url, '--record', file])
    const origin = await serverOrigin(recorder)
    expect(recorder.stdout()).toContain(`Upstream: ${upstream.url}`)
    const live = await (await fetch(`${origin}/v1/pets?limit=4`, { headers: FREE })).text()
    recorder.child.kill('SIGTERM')
    expect(await recorder.exited).toBe(0)
    expect(recorder.stdout()).toMatch(/GET +\/v1\/pets\?limit=4 +200 .* upstream/)
    await upstream.stop()

    const replayer = spawnCli(['--port', '0', '--replay', file])
    const replayed = await serverOrigin(replayer)
    expect(await (await fetch(`${replayed}/v1/pets?limit=4`, { headers: FREE })).text()).toBe(live)
    const mode = await (await fetch(`${replayed}/__sandbox/mode`)).json()
    expect(mode).toMatchObject({
      mode: 'replay',
      modes: ['sandbox', 'replay'],
      replay: { answers: 1 },
    })
    replayer.child.kill('SIGTERM')
    await replayer.exited
  })

  it('refuses a missing or broken recording at start, naming the file', async () => {
    const missing = spawnCli(['--port', '0', '--replay', join(dir, 'nope.har')])
    expect(await missing.exited).toBe(2)
    expect(missing.stderr()).toContain('nope.har: no such file')
    const orphan = spawnCli(['--port', '0', '--record', join(dir, 'x.har')])
    expect(await orphan.exited).toBe(2)
    expect(orphan.stderr()).toContain('--record: it needs --upstream URL')
  })
})
