import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORDING_TAIL } from '../../src/files/open-har-appender.js'
import { RecordingFileError } from '../../src/files/recording-file-error.js'
import { createSandboxServer } from '../../src/server/create-sandbox-server.js'
import { killAllChildren, spawnCli } from '../server/spawn-cli.js'
import { startHostileUpstream, type UpstreamProcess } from '../support/upstream-processes.js'
import { FREE, type Front, startFront } from './upstream-front.js'

// Issue 31 items 2-5: recordings appended in place with bounded memory, an existing one kept,
// the upstream key never recorded whole, a replay that cannot be served refused at load.
let dir: string
let hostile: UpstreamProcess
const fronts: Front[] = []
const front = async (options: Parameters<typeof startFront>[0]): Promise<Front> => {
  const started = await startFront(options)
  fronts.push(started)
  return started
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-recording-'))
  hostile = await startHostileUpstream()
}, 60_000)
afterAll(async () => {
  await Promise.all(fronts.map((f) => f.close()))
  await hostile?.stop()
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

interface HarLike {
  log: { version: string; entries: { request: { url: string }; response: HarResponse }[] }
}
interface HarResponse {
  status: number
  headers: { name: string; value: string }[]
  content: { text: string }
}

const readHar = (file: string): HarLike => JSON.parse(readFileSync(file, 'utf8')) as HarLike

const get = async (f: Front, path: string, headers = FREE): Promise<string> => {
  const response = await f.get(path, headers)
  return response.text()
}

describe('--record appends as it goes', () => {
  it('appends each answer in place (no rewrite), the file valid HAR after each, nothing kept in memory', async () => {
    const file = join(dir, 'append.har')
    const f = await front({ upstream: { url: hostile.url, record: file } })
    await get(f, '/v1/hostile/sized?bytes=2000')
    const { ino } = statSync(file)
    expect(readHar(file).log.entries).toHaveLength(1)
    for (let i = 2; i <= 5; i++) {
      await get(f, `/v1/hostile/sized?bytes=${i * 1000}`)
      // Valid after every answer, the same file (an atomic rewrite renames a new one over it).
      const har = readHar(file)
      expect(har.log.version).toBe('1.2')
      expect(har.log.entries).toHaveLength(i)
      expect(statSync(file).ino).toBe(ino)
    }
    expect(readHar(file).log.entries.map((e) => e.request.url.split('=')[1])).toEqual([
      '2000',
      '2000',
      '3000',
      '4000',
      '5000',
    ])
    // One line per entry: the writer never holds the recording.
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(1 + 5 + 2)
    expect((await f.app.sandbox.upstream.recording()).log.entries).toEqual([])
    const mode = (await (await fetch(`${f.origin}/__sandbox/mode`)).json()) as { recorded: number }
    expect(mode.recorded).toBe(5)
  })

  it('records no body past the upstream body limit (the answer is refused, nothing recorded)', async () => {
    const file = join(dir, 'bounded.har')
    const f = await front({ upstream: { url: hostile.url, record: file, maxBodyBytes: 4096 } })
    expect((await f.get('/v1/hostile/sized?bytes=8000')).status).toBe(502)
    await get(f, '/v1/hostile/sized?bytes=1000')
    expect(readHar(file).log.entries.map((e) => e.response.status)).toEqual([200])
  })

  it('appends to an existing recording on the next start, and repairs one cut short by a kill', async () => {
    const file = join(dir, 'resume.har')
    const first = await front({ upstream: { url: hostile.url, record: file } })
    await get(first, '/v1/hostile/sized?bytes=100')
    await get(first, '/v1/hostile/sized?bytes=200')
    await first.close()
    // A kill in the middle of the third append: the tail gone, half an entry written.
    truncateSync(file, statSync(file).size - RECORDING_TAIL.length)
    writeFileSync(file, ',{"startedDateTime":"2026-', { flag: 'a' })
    // Readable as it is: --replay serves the two whole entries.
    const replay = await front({ upstream: { replay: file } })
    const replayed = await replay.get('/v1/hostile/sized?bytes=200')
    expect([replayed.status, await replayed.text()]).toEqual([200, expect.stringMatching(/^\[/)])
    expect(await replay.app.sandbox.upstream.replay()).toEqual({ answers: 2, skipped: 0 })
    // Recording again appends after them.
    const second = await front({ upstream: { url: hostile.url, record: file } })
    await get(second, '/v1/hostile/sized?bytes=300')
    expect(readHar(file).log.entries.map((e) => e.request.url.split('=')[1])).toEqual([
      '100',
      '200',
      '300',
    ])
  })

  it('rewrites a pretty-printed HAR of another tool once into its layout, keeping every entry, then appends', async () => {
    const file = join(dir, 'theirs.har')
    const theirs = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [{ id: 'page_1', title: 'Pets' }],
        entries: [
          entry({ content: { text: '[{"name":"Rex"}]' } }),
          entry({ status: 404, content: { text: '{"code":"not_found","message":"Ünïcødé 🐾"}' } }),
          entry({ content: { text: 'AAEC', encoding: 'base64' } }),
        ].map((e, i) => ({ ...e, startedDateTime: `2026-01-0${i + 1}T00:00:00.000Z`, _theirs: i })),
      },
    }
    writeFileSync(file, `${JSON.stringify(theirs, null, 2)}\n`, { mode: 0o600 })
    const stale = join(dir, '.theirs.har.999999.3.tmp')
    writeFileSync(stale, '{')
    const f = await front({ upstream: { url: hostile.url, record: file } })
    expect(existsSync(stale)).toBe(false)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // Rewritten at start, before any answer: one entry per line, valid HAR, the entries as they were.
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines).toHaveLength(1 + 3 + 2)
    expect(readHar(file).log.entries).toEqual(theirs.log.entries)
    await get(f, '/v1/hostile/sized?bytes=100')
    const after = readHar(file).log.entries
    expect(after).toHaveLength(4)
    expect(after.slice(0, 3)).toEqual(theirs.log.entries)
    expect(after[3]?.request.url).toMatch(/sized\?bytes=100$/)
    await f.close()
    // The next start appends in place (the layout is the sandbox's now): nothing rewritten.
    const before = readFileSync(file, 'utf8')
    const again = await front({ upstream: { url: hostile.url, record: file } })
    await get(again, '/v1/hostile/sized?bytes=200')
    const text = readFileSync(file, 'utf8')
    expect(text.startsWith(before.slice(0, -RECORDING_TAIL.length))).toBe(true)
    expect(readHar(file).log.entries).toHaveLength(5)
  })

  it.each([
    ['not JSON', 'GET /v1/pets 200\n', 'it is not JSON'],
    ['JSON without log.entries', '{\n  "log": { "version": "1.2" }\n}\n', 'no log.entries array'],
    [
      'an entry that is not an object',
      '{ "log": { "entries": [ {}, 42 ] } }',
      'its entry 1 is not an object',
    ],
  ])(
    'refuses an existing file that is %s and leaves it as it is (exit 1, one line)',
    async (_, theirs, reason) => {
      const file = join(dir, 'not-har.har')
      writeFileSync(file, theirs)
      expect(() => createSandboxServer({ upstream: { url: hostile.url, record: file } })).toThrow(
        RecordingFileError,
      )
      expect(() => createSandboxServer({ upstream: { url: hostile.url, record: file } })).toThrow(
        new RegExp(
          `Failed to record to .*not-har\\.har: the file exists and .*${reason.replace(/[.()]/g, '\\$&')}`,
        ),
      )
      expect(readFileSync(file, 'utf8')).toBe(theirs)
      const cli = spawnCli(['--port', '0', '--upstream', hostile.url, '--record', file])
      expect(await cli.exited).toBe(1)
      expect(cli.stderr().trim().split('\n')).toHaveLength(1)
      expect(cli.stderr()).toContain('so the sandbox cannot append to it')
      expect(readFileSync(file, 'utf8')).toBe(theirs)
    },
  )
})

describe('the upstream key, echoed by the upstream', () => {
  it('is never journaled, exported or recorded whole', async () => {
    const key = 'staging-secret-key-0123456789'
    const file = join(dir, 'echo.har')
    const f = await front({ upstream: { url: hostile.url, key, record: file } })
    const response = await f.get('/v1/hostile/echo-key')
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    const journal = JSON.stringify(await f.journal())
    const exported = await (await fetch(`${f.origin}/__sandbox/requests.har`)).text()
    const recorded = readFileSync(file, 'utf8')
    for (const stored of [journal, exported, recorded]) {
      expect(stored).not.toContain(key)
      expect(stored).toContain('stag…(redacted)')
    }
    const [journaled] = await f.journal()
    expect(journaled?.response?.headers).toMatchObject({
      'x-echo-authorization': 'Bearer stag…(redacted)',
    })
  })
})

describe('the upstream key, echoed escaped or among bytes', () => {
  // A `/` to be escaped as `\/`, a `+` and `=` percent-encoded in a URL.
  const key = 'staging/secret+key~0123456789'

  it('is redacted when the body JSON-escapes it (\\/ and \\u00XX) and a header percent-encodes it', async () => {
    const file = join(dir, 'echo-escaped.har')
    const f = await front({ upstream: { url: hostile.url, key, record: file } })
    const response = await f.get('/v1/hostile/echo-key-escaped')
    // The client gets the upstream's bytes as received.
    expect(await response.text()).toContain('staging\\/secret')
    const journal = JSON.stringify(await f.journal())
    const exported = await (await fetch(`${f.origin}/__sandbox/requests.har`)).text()
    const recorded = readFileSync(file, 'utf8')
    for (const stored of [journal, exported, recorded]) {
      const text = JSON.parse(stored) as unknown
      const flat = JSON.stringify(text)
      expect(flat).not.toContain(key)
      expect(flat).not.toContain(encodeURIComponent(key))
      expect(flat).not.toMatch(/staging\\\\\/secret/)
      expect(flat).not.toMatch(/\\\\u0073\\\\u0074\\\\u0061/i)
      expect(flat).toContain('stag…(redacted)')
    }
    const [journaled] = await f.journal()
    expect(journaled?.response?.body).toBe(
      '{"slashes":"Bearer stag…(redacted)","unicode":"Bearer stag…(redacted)"}'.replace(
        '"unicode":"Bearer ',
        `"unicode":"${[...'Bearer '].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('')}`,
      ),
    )
    expect(journaled?.response?.headers['x-echo-url']).toBe(
      `https://staging.test/?auth=Bearer%20stag…(redacted)`,
    )
  })

  it('is redacted inside a body recorded in base64 (bytes that are not UTF-8)', async () => {
    const file = join(dir, 'echo-binary.har')
    const f = await front({ upstream: { url: hostile.url, key, record: file } })
    const response = await f.get('/v1/hostile/echo-key-binary')
    expect(Buffer.from(await response.arrayBuffer()).includes(key)).toBe(true)
    const [recorded] = readHar(file).log.entries
    const content = recorded?.response.content as { text: string; encoding?: string }
    expect(content.encoding).toBe('base64')
    const bytes = Buffer.from(content.text, 'base64')
    expect(bytes.includes(key)).toBe(false)
    expect(bytes.includes('Bearer stag…(redacted)')).toBe(true)
    // The bytes around the key are kept as they were.
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xfe, 0x00])
    expect(bytes.at(-1)).toBe(0xc3)
    const exported = await (await fetch(`${f.origin}/__sandbox/requests.har`)).text()
    expect(exported).not.toContain(key)
    expect(JSON.stringify(await f.journal())).not.toContain(key)
  })
})

const entry = (response: Record<string, unknown>) => ({
  request: { method: 'GET', url: 'https://staging.test/v1/pets', headers: [] },
  response: { status: 200, headers: [], content: { text: '[]' }, ...response },
})
const harOf = (...entries: unknown[]) => ({ log: { version: '1.2', entries } })

describe('a replay that cannot be served', () => {
  it.each([
    ['a status past 599', { status: 1000 }, 'response.status 1000 is not an HTTP status'],
    ['a status under 100', { status: 99 }, 'response.status 99 is not an HTTP status'],
    ['a status that is not whole', { status: 1.5 }, 'response.status 1.5 is not an HTTP status'],
    ['a status that is text', { status: '200' }, 'response.status "200" is not an HTTP status'],
    [
      'a header name with a space',
      { headers: [{ name: 'Bad Name', value: 'x' }] },
      'response header name "Bad Name" is not an HTTP token',
    ],
    [
      'a header value with CR/LF',
      { headers: [{ name: 'X-A', value: 'a\r\nSet-Cookie: x=1' }] },
      "response header X-A's value",
    ],
    [
      'a header value past Latin-1',
      { headers: [{ name: 'X-A', value: 'caf\u00e9 \u2603' }] },
      'response header X-A\'s value "caf\u00e9 \u2603" has a line break, a NUL or a character past Latin-1',
    ],
    [
      'a body that says base64 and is not',
      { content: { text: 'not base64 at all!', encoding: 'base64' } },
      'response.content.text is not valid base64',
    ],
  ])('is refused at load, naming the entry: %s', (_name, response, message) => {
    const har = harOf(entry({}), entry(response))
    expect(() => createSandboxServer({ upstream: { replay: har } })).toThrow(
      `entry 2 (GET https://staging.test/v1/pets): ${message}`,
    )
  })

  it('serves a recording whose entries are valid, a failed connection and HTTP/2 pseudo-headers included', async () => {
    const har = harOf(
      entry({
        headers: [
          { name: ':status', value: '200' },
          { name: 'ETag', value: '"a"' },
        ],
      }),
      entry({ status: 0 }),
    )
    const f = await front({ upstream: { replay: har } })
    const response = await f.get('/v1/pets')
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toBe('"a"')
  })

  it('--replay of a file with invalid base64 exits 1 with one line and no stack trace', async () => {
    const file = join(dir, 'bad-base64.har')
    writeFileSync(
      file,
      JSON.stringify(harOf(entry({ content: { text: '@@@', encoding: 'base64' } }))),
    )
    const cli = spawnCli(['--port', '0', '--replay', file])
    expect(await cli.exited).toBe(1)
    const lines = cli.stderr().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      'bad-base64.har: entry 1 (GET https://staging.test/v1/pets): response.content.text is not valid base64',
    )
    expect(cli.stderr()).not.toMatch(/\n\s+at /)
  })
})
