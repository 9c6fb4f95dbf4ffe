import { once } from 'node:events'
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { JournalEntry, Pact } from '../../src/index.js'
import { journalEntryOfHar } from '../../src/judge/entries-from-har.js'
import { createHarEntryStream } from '../../src/judge/har-entry-stream.js'
import { killAllChildren, spawnCli } from '../server/spawn-cli.js'

// Issue 37 item 14, through the bundled CLI (what `npx petstore-sandbox pact` runs): a HAR
// whose request body nests 6,000 deep, and a valid HAR with one body past V8's longest
// string. Each such exchange is left out and listed; the others are kept; no stack trace.
const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-hostile-har-'))
afterAll(() => {
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

const KEY = { name: 'Authorization', value: 'Bearer sandbox-pro' }
const JSON_HEADER = { name: 'Content-Type', value: 'application/json' }
const PET = '{"id":1,"name":"Rex","status":"available","categoryId":1}'

/** A HAR entry as a browser writes it; `responseText` given raw (JSON text of the string). */
const entry = (
  method: string,
  path: string,
  status: number,
  body: { request?: string; responseJson: string },
): string =>
  JSON.stringify({
    startedDateTime: '2030-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method,
      url: `https://api.example.test/v1${path}`,
      httpVersion: 'HTTP/1.1',
      headers: body.request === undefined ? [KEY] : [KEY, JSON_HEADER],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: -1,
      ...(body.request === undefined
        ? {}
        : { postData: { mimeType: 'application/json', text: body.request } }),
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [JSON_HEADER],
      cookies: [],
      content: { size: -1, mimeType: 'application/json', text: body.responseJson },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  })

const HEAD = '{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":['
const TAIL = ']}}'

const runPact = async (file: string) => {
  const run = spawnCli(['pact', '--from', file], {}, 'bundle')
  const status = await run.exited
  return { status, stdout: run.stdout(), stderr: run.stderr() }
}

describe('pact --from a hostile HAR (the bundled CLI)', () => {
  it('leaves out an exchange whose request body nests 6,000 deep, and keeps the others', async () => {
    const deep = `${'{"a":'.repeat(6_000)}1${'}'.repeat(6_000)}`
    const file = join(dir, 'deep.har')
    writeFileSync(
      file,
      `${HEAD}${[
        entry('GET', '/pets?limit=1', 200, { responseJson: `[${PET}]` }),
        entry('POST', '/pets', 201, { request: deep, responseJson: PET }),
        entry('GET', '/pets/1', 200, { responseJson: PET }),
      ].join(',')}${TAIL}`,
    )
    const { status, stdout, stderr } = await runPact(file)
    expect(stderr).not.toContain('RangeError')
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(stderr).toContain(
      'the request body nests deeper than 100 levels: a Pact verifier cannot read a pact that deep',
    )
    expect(status).toBe(1)
    const pact = JSON.parse(stdout) as Pact
    expect(pact.interactions.map((i) => i.description)).toEqual(['listPets: 200', 'getPet: 200'])
  }, 60_000)

  it('leaves out an exchange with a body past V8’s longest string, and keeps the others', async () => {
    // 560 million characters: more than V8's longest string (2^29 - 24), written in a stream.
    const file = join(dir, 'huge.har')
    const out = createWriteStream(file)
    const write = async (text: string): Promise<void> => {
      if (!out.write(text)) await once(out, 'drain')
    }
    await write(HEAD)
    await write(`${entry('GET', '/pets?limit=1', 200, { responseJson: `[${PET}]` })},`)
    const huge = entry('GET', '/pets?limit=2', 200, { responseJson: 'HUGE' })
    const [before, after] = huge.split('"HUGE"') as [string, string]
    await write(`${before}"[`)
    // A JSON array of numbers (no quote to escape inside the HAR's string).
    const block = '12345,'.repeat(174_763)
    const blocks = Math.ceil(560_000_000 / block.length)
    for (let i = 0; i < blocks; i++) await write(block)
    await write(`1]"${after},`)
    await write(entry('GET', '/pets/1', 200, { responseJson: PET }))
    await write(TAIL)
    out.end()
    await once(out, 'finish')

    const { status, stdout, stderr } = await runPact(file)
    expect(stderr).not.toContain('Invalid string length')
    expect(stderr).toContain('the journal kept only the start of the response body')
    expect(status).toBe(1)
    const pact = JSON.parse(stdout) as Pact
    expect(pact.interactions.map((i) => i.description)).toEqual(['listPets: 200', 'getPet: 200'])
  }, 300_000)
})

describe('the reader cuts long body strings before it builds them', () => {
  it('cuts only `text` values, at any chunk boundary (escapes split included), and marks them', () => {
    const body = `${'é\\"\u00e9ab'.repeat(20)}`
    const long = `/pets?q=${'x'.repeat(300)}`
    const text = `${HEAD}${entry('POST', long, 201, { request: body, responseJson: PET })}${TAIL}`
    const read = (chunking: number): JournalEntry[] => {
      const kept: JournalEntry[] = []
      const stream = createHarEntryStream((e) => kept.push(e), { maxBodyChars: 5 })
      const bytes = new TextEncoder().encode(text)
      for (let i = 0; i < bytes.length; i += chunking) stream.write(bytes.slice(i, i + chunking))
      stream.end()
      return kept
    }
    const { entry: whole } = journalEntryOfHar(
      (JSON.parse(text) as { log: { entries: unknown[] } }).log.entries[0],
      0,
      5,
    )
    for (const chunking of [1, 2, 3, 7, 64, 1 << 20]) {
      const [got] = read(chunking)
      expect(got?.url).toBe(whole.url)
      expect(got?.request).toEqual(whole.request)
      expect(got?.request.bodyTruncated).toBe(true)
      expect(got?.response).toEqual(whole.response)
    }
  })
})
