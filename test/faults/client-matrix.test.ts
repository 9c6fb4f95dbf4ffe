import axios from 'axios'
import got from 'got'
import ky from 'ky'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'

// docs/scenarios.md's fault table, client by client, as a test (issue 37): every fault of the
// standalone server over real sockets, and what Node's fetch (undici), axios, got and ky
// report. A reset and a clean close must stay apart, as they do against a real server.
const app = createSandboxServer({ maxHoldMs: 2_000 })
let api = ''
beforeAll(async () => {
  api = `${(await app.listen(0, '127.0.0.1')).url}/v1`
})
afterAll(() => app.close())

const headers = { authorization: 'Bearer sandbox-enterprise' }
type Failure = Error & { code?: string; cause?: { code?: string }; response?: { status?: number } }
const causeCode = (error: Failure) => error.cause?.code ?? '-'

/** One line per client: what the app sees, in the words the client uses. */
const clients = {
  fetch: async (url: string) => {
    let response: Response
    try {
      response = await fetch(url, { headers })
    } catch (error) {
      return `rejects ${(error as Failure).name} (${causeCode(error as Failure)})`
    }
    try {
      await response.json()
      return `${response.status}, json`
    } catch (error) {
      return `${response.status}, then ${(error as Failure).name} (${causeCode(error as Failure)})`
    }
  },
  axios: async (url: string) => {
    try {
      const response = await axios.get(url, { headers })
      return `resolves ${response.status}, data a ${typeof response.data}`
    } catch (error) {
      const failure = error as Failure
      return `rejects ${failure.code} ${failure.response?.status ?? '-'} (${failure.message})`
    }
  },
  got: async (url: string) => {
    try {
      const response = await got(url, { headers, retry: { limit: 0 }, responseType: 'json' })
      return `resolves ${response.statusCode}`
    } catch (error) {
      const failure = error as Failure & { response?: { statusCode?: number } }
      const detail = failure.name === 'RequestError' ? ` (${failure.message})` : ''
      return `rejects ${failure.name} ${failure.code} ${failure.response?.statusCode ?? '-'}${detail}`
    }
  },
  ky: async (url: string) => {
    try {
      return `resolves a ${typeof (await ky.get(url, { headers, retry: 0, timeout: false }).json())}`
    } catch (error) {
      const failure = error as Failure
      return `rejects ${failure.name} ${failure.response?.status ?? '-'} (${causeCode(failure)})`
    }
  },
}

// FIN: undici's "other side closed" (UND_ERR_SOCKET), Node's "socket hang up"; RST: ECONNRESET.
const closed = {
  fetch: 'rejects TypeError (UND_ERR_SOCKET)',
  axios: 'rejects ECONNRESET - (socket hang up)',
  got: 'rejects RequestError ECONNRESET - (socket hang up)',
  ky: 'rejects TypeError - (UND_ERR_SOCKET)',
}
const cutShort = {
  fetch: '200, then TypeError (UND_ERR_SOCKET)',
  axios: 'rejects ERR_BAD_RESPONSE 200 (stream has been aborted)',
  got: 'rejects ReadError ECONNRESET 200',
  ky: 'rejects TypeError - (UND_ERR_SOCKET)',
}
const TABLE: Record<string, Record<keyof typeof clients, string>> = {
  'network-error': closed,
  'timeout&__delay=50': closed,
  'reset-mid-body': {
    fetch: '200, then TypeError (ECONNRESET)',
    axios: 'rejects ECONNRESET - (read ECONNRESET)',
    got: 'rejects RequestError ECONNRESET 200 (read ECONNRESET)',
    ky: 'rejects TypeError - (ECONNRESET)',
  },
  'truncated-body': cutShort,
  'stall-after-headers&__delay=50': cutShort,
  'slow-body&__bandwidth=100000': {
    fetch: '200, json',
    axios: 'resolves 200, data a object',
    got: 'resolves 200',
    ky: 'resolves a object',
  },
  'malformed-json': {
    fetch: '200, then SyntaxError (-)',
    axios: 'resolves 200, data a string',
    got: 'rejects ParseError ERR_BODY_PARSE_FAILURE 200',
    ky: 'rejects SyntaxError - (-)',
  },
  'proxy-error': {
    fetch: '502, then SyntaxError (-)',
    axios: 'rejects ERR_BAD_RESPONSE 502 (Request failed with status code 502)',
    got: 'rejects HTTPError ERR_NON_2XX_3XX_RESPONSE 502',
    ky: 'rejects HTTPError 502 (-)',
  },
  'empty-response': closed,
  'commit-then-drop': closed,
  'commit-then-drop&__drop=reset': {
    fetch: 'rejects TypeError (ECONNRESET)',
    axios: 'rejects ECONNRESET - (read ECONNRESET)',
    got: 'rejects RequestError ECONNRESET - (read ECONNRESET)',
    ky: 'rejects TypeError - (ECONNRESET)',
  },
}

describe.each(Object.keys(clients) as (keyof typeof clients)[])('what %s reports', (client) => {
  it.each(Object.keys(TABLE))('for %s', async (fault) => {
    expect(await clients[client](`${api}/pets?__scenario=${fault}`)).toBe(TABLE[fault]?.[client])
  })
})
