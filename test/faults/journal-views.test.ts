import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { toHAR } from '../../src/journal/to-har.js'
import { entriesFromHAR } from '../../src/judge/entries-from-har.js'
import { setupSandbox } from '../../src/runtimes/node.js'

// The journal's views of a fault: HAR carries `delivered` and Chrome's `_error`, and reads them back.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const headers = { authorization: 'Bearer sandbox-pro', 'content-type': 'application/json' }

describe('faults in the journal views', () => {
  it('keeps a lost 201 through HAR and back: status, fault, delivered: false', async () => {
    await expect(
      fetch(`${API}/pets?__scenario=commit-then-drop`, {
        method: 'POST',
        headers,
        body: '{"name":"Har","categoryId":1}',
      }),
    ).rejects.toThrow(TypeError)
    await (await fetch(`${API}/pets?__scenario=proxy-error`, { headers })).text()
    const har = toHAR(sandbox.journal.list())
    expect(har.log.entries[0]).toMatchObject({
      response: { status: 201 },
      _error: 'net::ERR_EMPTY_RESPONSE',
      _sandbox: { fault: 'commit-then-drop', delivered: false },
    })
    expect(har.log.entries[1]).toMatchObject({
      response: { status: 502 },
      _sandbox: { fault: 'proxy-error', delivered: true },
    })
    expect(har.log.entries[1]).not.toHaveProperty('_error')
    const [session] = entriesFromHAR(JSON.parse(JSON.stringify(har)))
    expect(session?.entries).toMatchObject([
      { status: 201, fault: 'commit-then-drop', delivered: false },
      { status: 502, fault: 'proxy-error', delivered: true },
    ])
  })

  it('labels commit-then-drop as Chromium does: a close ERR_EMPTY_RESPONSE, __drop=reset a reset', async () => {
    for (const drop of ['', '&__drop=reset'])
      await expect(
        fetch(`${API}/pets?__scenario=commit-then-drop${drop}`, {
          method: 'POST',
          headers,
          body: '{"name":"Har","categoryId":1}',
        }),
      ).rejects.toThrow(TypeError)
    const har = toHAR(sandbox.journal.list())
    expect(har.log.entries.map((e) => e._error)).toEqual([
      'net::ERR_EMPTY_RESPONSE',
      'net::ERR_CONNECTION_RESET',
    ])
  })

  it('reads a browser HAR entry with an _error and a status as not delivered', () => {
    const [session] = entriesFromHAR({
      log: {
        entries: [
          {
            startedDateTime: '2030-01-01T12:00:00.000Z',
            request: { method: 'POST', url: `${API}/pets` },
            response: { status: 201 },
            _error: 'net::ERR_CONTENT_LENGTH_MISMATCH',
          },
        ],
      },
    })
    expect(session?.entries[0]).toMatchObject({ status: 201, delivered: false })
  })
})
