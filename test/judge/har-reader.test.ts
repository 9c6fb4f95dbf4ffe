import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runPactCommand } from '../../src/cli/pact-command.js'
import { runReportCommand } from '../../src/cli/report-command.js'
import { useEnglishZodMessages } from '../../src/contract/zod-messages.js'
import type { JournalEntry } from '../../src/journal/journal.js'
import { toHAR } from '../../src/journal/to-har.js'
import { entriesFromHAR } from '../../src/judge/entries-from-har.js'
import { createHarEntryStream } from '../../src/judge/har-entry-stream.js'
import { reportClient } from '../../src/judge/report-client.js'
import { pactOfJournal } from '../../src/pact/pact-on-demand.js'
import { setupSandbox } from '../../src/runtimes/node.js'
import { syntheticHarEntry, syntheticHarText } from '../support/synthetic-har.js'

// Issue 31 item 7: `report --from` and `pact --from` read the HAR as a stream, keep only
// what their output needs, and say the same as the whole-text reading did, byte for byte.
const sandbox = setupSandbox()
let dir = ''
const fixtures = new Map<string, string>()
beforeAll(async () => {
  sandbox.listen()
  dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-har-reader-'))
  // The sandbox's own requests.har: creates (one twice after a 503), a deprecated getPet,
  // a key in the query, refused keys, a dropped connection.
  const API = 'https://api.example.test/v1'
  const pro = { authorization: 'Bearer sandbox-pro', 'content-type': 'application/json' }
  sandbox.clock.set('2030-12-04T23:59:00Z')
  const sends: [string, RequestInit][] = [
    ['/pets?limit=2', { headers: pro }],
    ['/pets?__scenario=unavailable', { method: 'POST', headers: pro, body: '{"name":"Ünï 🐾"}' }],
    ['/pets', { method: 'POST', headers: pro, body: '{"name":"Ünï 🐾"}' }],
    ['/pets/3', { headers: pro }],
    ['/pets?api_key=sandbox-pro', {}],
    ['/pets?__scenario=network-error', { headers: pro }],
    ['/pets', { headers: { authorization: 'Bearer nope' } }],
    ['/pets', { headers: { authorization: 'Bearer nope' } }],
  ]
  for (const [path, init] of sends) {
    await fetch(`${API}${path}`, init).then(
      (r) => r.text(),
      () => undefined,
    )
    sandbox.clock.advance(300)
  }
  fixtures.set('sandbox', JSON.stringify(toHAR(sandbox.journal.list()), null, 2))
  fixtures.set('synthetic', syntheticHarText(3_000, 7))
  // A browser's export: no `_sandbox`, base64 bodies, pseudo-headers.
  const browser = JSON.parse(syntheticHarText(60, 3)) as {
    log: { entries: Record<string, unknown>[] }
  }
  for (const entry of browser.log.entries) {
    delete entry._sandbox
    const content = (entry.response as { content: { text?: string; encoding?: string } }).content
    if (content.text !== undefined) {
      content.text = Buffer.from(content.text).toString('base64')
      content.encoding = 'base64'
    }
  }
  fixtures.set('browser', JSON.stringify(browser))
  for (const [name, text] of fixtures) writeFileSync(join(dir, `${name}.har`), text)
})
afterAll(() => {
  sandbox.close()
  rmSync(dir, { recursive: true, force: true })
})

const run = async (
  command: typeof runReportCommand | typeof runPactCommand,
  args: string[],
  text?: string,
) => {
  let out = ''
  let err = ''
  const status = await command(args, {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    ...(text === undefined ? {} : { readFile: async () => text }),
  })
  return { status, out, err }
}

/** The whole-text reading `report --from` did before: JSON.parse, then every entry at once. */
const wholeTextReport = (text: string): string => {
  useEnglishZodMessages()
  const reports = entriesFromHAR(JSON.parse(text)).map(({ session, entries }) =>
    reportClient(entries, { session }),
  )
  return `${JSON.stringify(reports, null, 2)}\n`
}
const wholeTextPact = (text: string, session?: string) => {
  const sessions = entriesFromHAR(JSON.parse(text)).filter(
    (s) => session === undefined || s.session === session,
  )
  return pactOfJournal(
    sessions.flatMap((s) => s.entries),
    { consumer: 'pet-store-client', provider: 'pet-store' },
  )
}

describe('report --from and pact --from read the HAR as a stream', () => {
  it.each(['sandbox', 'synthetic', 'browser'])(
    'report --json is byte for byte the whole-text reading of the %s HAR',
    async (name) => {
      const text = fixtures.get(name) ?? ''
      const { status, out, err } = await run(runReportCommand, [
        '--from',
        join(dir, `${name}.har`),
        '--json',
      ])
      expect(err).toBe('')
      expect(out).toBe(wholeTextReport(text))
      expect(JSON.parse(out).length).toBeGreaterThan(0)
      expect(status).toBe(1)
    },
  )

  it('finds in a long HAR what the rules find (the synthetic one has them all)', async () => {
    const reports = JSON.parse(
      (await run(runReportCommand, ['--from', join(dir, 'synthetic.har'), '--json'])).out,
    ) as { session: string; requests: number; findings: { rule: string }[] }[]
    expect(reports.map((r) => r.session)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6'])
    expect(reports.reduce((n, r) => n + r.requests, 0)).toBe(3_000)
    expect(new Set(reports[0]?.findings.map((f) => f.rule))).toEqual(
      new Set([
        'retry-before-retry-after',
        'deprecated-operation',
        'key-in-query',
        'duplicate-create-after-failure',
        'repeated-invalid-key',
      ]),
    )
  })

  it.each([
    ['sandbox', undefined],
    ['synthetic', undefined],
    ['synthetic', 's3'],
    ['browser', undefined],
  ])(
    'pact is byte for byte the whole-text reading of the %s HAR (session %s)',
    async (name, session) => {
      const text = fixtures.get(name) ?? ''
      const args = [
        '--from',
        join(dir, `${name}.har`),
        ...(session === undefined ? [] : ['--session', session]),
      ]
      const { status, out, err } = await run(runPactCommand, args)
      const before = wholeTextPact(text, session)
      expect(out).toBe(`${JSON.stringify(before.pact, null, 2)}\n`)
      expect(before.pact.interactions.length).toBeGreaterThan(0)
      expect(err.split('\n').filter((l) => l.startsWith('  skipped')).length).toBe(
        before.skipped.length,
      )
      expect(err.split('\n').filter((l) => l.startsWith('  refused')).length).toBe(
        before.problems.length,
      )
      expect(status).toBe(before.problems.length > 0 ? 1 : 0)
    },
  )

  it('pact: an exchange read first in a later session belongs to the earlier one, as before', async () => {
    const entry = (session: string, limit: number, client: string, status = 200) => ({
      startedDateTime: '2030-01-01T00:00:00.000Z',
      request: {
        method: 'GET',
        url: `https://api.example.test/v1/pets?limit=${limit}&__session=${session}`,
        headers: [
          { name: 'Authorization', value: 'Bearer sandbox-pro' },
          { name: 'X-Client', value: client },
        ],
      },
      response: {
        status,
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        content: { text: '[]' },
      },
    })
    const text = JSON.stringify({
      log: {
        entries: [
          entry('A', 1, 'a1'),
          entry('B', 2, 'b1'),
          entry('B', 9, 'b2', 418),
          entry('B', 3, 'b3'),
          entry('A', 2, 'a2'),
          entry('C', 2, 'c1'),
          entry('A', 9, 'a3', 418),
          entry('A', 2, 'a4'),
        ],
      },
    })
    const { status, out, err } = await run(runPactCommand, ['--from', 'x.har'], text)
    const before = wholeTextPact(text)
    expect(out).toBe(`${JSON.stringify(before.pact, null, 2)}\n`)
    // A's own headers, though B's limit=2 came first in the file.
    expect(out).toContain('"a2"')
    expect(out).not.toContain('"b1"')
    expect(before.problems.map((p) => p.seqs)).toEqual([[3, 2]])
    expect(err).toMatch(/refused {2}\S+: 418 \(#3, #2\)/)
    expect(status).toBe(1)
  })

  it('hands entries over while the file is still coming, in any chunking (UTF-8 split mid-character)', () => {
    const text = fixtures.get('synthetic') ?? ''
    const bytes = new TextEncoder().encode(text)
    const seen: JournalEntry[] = []
    const stream = createHarEntryStream((entry) => seen.push(entry))
    const half = Math.floor(bytes.length / 2)
    for (let at = 0; at < half; at += 7) stream.write(bytes.subarray(at, Math.min(half, at + 7)))
    // Half the file gave about half the entries, before the end was read.
    expect(seen.length).toBeGreaterThan(1_000)
    expect(seen.length).toBeLessThan(2_000)
    stream.write(bytes.subarray(half))
    stream.end()
    const whole = entriesFromHAR(JSON.parse(text)).flatMap((s) => s.entries)
    const byFileOrder = (a: JournalEntry, b: JournalEntry) =>
      a.time.localeCompare(b.time) || a.session.localeCompare(b.session)
    expect([...seen].sort(byFileOrder)).toEqual([...whole].sort(byFileOrder))
    expect(seen.some((e) => e.response?.body?.includes('Ñandú 🐾'))).toBe(true)
  })
})

describe('what cannot be read is said in one line, exit 2', () => {
  const synthetic = () => fixtures.get('synthetic') ?? ''
  it.each([
    ['not JSON', '{nope', 'Failed to read the HAR: it is not JSON'],
    ['cut short', () => synthetic().slice(0, 100_000), 'Failed to read the HAR: it is not JSON'],
    [
      'an empty file',
      '',
      'it is not what HAR 1.2 holds (expected an object with log.entries, received nothing)',
    ],
    ['text after the JSON', '{"log":{"entries":[]}} {}', 'Failed to read the HAR: it is not JSON'],
    ['a list', '[]', 'it is not what HAR 1.2 holds (expected an object with log.entries'],
    [
      'no log',
      '{"entries":[]}',
      'log is not what HAR 1.2 holds (expected object, received nothing)',
    ],
    [
      'entries not a list',
      '{"log":{"entries":{"a":{}}}}',
      'log.entries is not what HAR 1.2 holds (expected array, received object)',
    ],
    [
      'entries a string',
      '{"log":{"entries":"x"}}',
      'log.entries is not what HAR 1.2 holds (expected array, received string)',
    ],
    [
      'a bad third entry',
      () =>
        JSON.stringify({
          log: { entries: [syntheticHarEntry(0), syntheticHarEntry(1), { request: {} }] },
        }),
      'log.entries.2.startedDateTime is not what HAR 1.2 holds',
    ],
  ])('%s', async (_, input, words) => {
    const text = typeof input === 'function' ? input() : input
    for (const command of [runReportCommand, runPactCommand]) {
      const { status, out, err } = await run(command, ['--from', 'x.har'], text)
      expect(status).toBe(2)
      expect(out).toBe('')
      expect(err.split('\n')[0]).toContain(words)
    }
  })

  it('refuses a --max-body-chars that is no whole number of characters', async () => {
    for (const value of ['-1', '1.5', '4k', '', '268435457', '99999999999', '１２'])
      for (const command of [runReportCommand, runPactCommand])
        expect(
          await run(command, ['--from', 'x.har', `--max-body-chars=${value}`], '{}'),
        ).toMatchObject({
          status: 2,
          err: expect.stringContaining('Failed to read --max-body-chars'),
        })
  })
})

describe('edges', () => {
  it('an empty entries list: no requests, no interactions, exit 0', async () => {
    const empty = '{"log":{"version":"1.2","entries":[]}}'
    expect(await run(runReportCommand, ['--from', 'x.har'], empty)).toMatchObject({
      status: 0,
      out: expect.stringContaining('The HAR holds no requests.'),
    })
    const pact = await run(runPactCommand, ['--from', 'x.har'], empty)
    expect(pact.status).toBe(0)
    expect(JSON.parse(pact.out).interactions).toEqual([])
  })

  it('a huge single entry: bodies cut at the cap and marked, judged and refused by the pact, no crash', async () => {
    const huge = syntheticHarEntry(7 * 50, 50) as {
      response: { content: { text: string } }
      request: { postData: { text: string } }
    }
    // About 2 Mi characters in each body, 4-byte characters included.
    huge.request.postData.text = `{"name":"${'🐾x'.repeat(700_000)}"}`
    huge.response.content.text = `{"id":1,"name":"${'é'.repeat(2 << 20)}"}`
    const text = JSON.stringify({ log: { entries: [huge, syntheticHarEntry(8 * 50, 50)] } })
    const seen: JournalEntry[] = []
    const stream = createHarEntryStream((e) => seen.push(e), { maxBodyChars: 1000 })
    stream.write(text)
    stream.end()
    expect(seen[0]?.request).toMatchObject({ bodyTruncated: true })
    expect(seen[0]?.request.body).toHaveLength(1000)
    expect(seen[0]?.response).toMatchObject({ bodyTruncated: true })
    expect(seen[0]?.response?.body).toHaveLength(1000)
    expect(seen[1]?.response).toMatchObject({ bodyTruncated: false })

    const report = await run(runReportCommand, ['--from', 'x.har', '--json'], text)
    expect(report).toMatchObject({ status: 0, err: '' })
    expect(JSON.parse(report.out)[0].requests).toBe(2)
    const pact = await run(runPactCommand, ['--from', 'x.har', '--max-body-chars', '100'], text)
    expect(pact.status).toBe(1)
    expect(pact.err).toContain('the journal kept only the start of the request body')
    expect(pact.out.length).toBeLessThan(10_000)
  })

  it('cuts a base64 body after decoding no more than the cap needs', () => {
    const entry = syntheticHarEntry(1, 3) as {
      response: { content: { text: string; encoding?: string } }
    }
    const body = `[${'"ü🐾",'.repeat(50_000)}0]`
    entry.response.content = { text: Buffer.from(body).toString('base64'), encoding: 'base64' }
    for (const [max, truncated] of [
      [10, true],
      [body.length - 1, true],
      [body.length, false],
    ] as const) {
      const seen: JournalEntry[] = []
      const stream = createHarEntryStream((e) => seen.push(e), { maxBodyChars: max })
      stream.write(JSON.stringify({ log: { entries: [entry] } }))
      stream.end()
      expect(seen[0]?.response).toEqual(
        expect.objectContaining({ body: body.slice(0, max), bodyTruncated: truncated }),
      )
    }
  })
})
