import { once } from 'node:events'
import { createWriteStream } from 'node:fs'

// A HAR of any length, made without a sandbox: what a long recording holds (lists, creates,
// a 429 and a 503 with Retry-After, a retried create, a deprecated getPet with Sunset, a key
// in the query, refused keys, failed connections), some entries as the sandbox writes them
// (`_sandbox`) and some as a browser does. The same index always gives the same entry.

const T0 = Date.parse('2030-06-01T00:00:00.000Z')
const header = (name: string, value: string) => ({ name, value })
const PET = (id: number) =>
  `{"id":${id},"name":"Pet ${id} — Ñandú 🐾","categoryId":${(id % 5) + 1},"status":"available"}`

/** The `i`-th entry of a synthetic HAR with `sessions` sessions (by `__session`). */
export const syntheticHarEntry = (i: number, sessions = 50): Record<string, unknown> => {
  const session = `s${i % sessions}`
  const step = Math.floor(i / sessions)
  const at = new Date(T0 + step * 700 + (i % sessions)).toISOString()
  const key = step % 97 >= 13 && step % 97 < 21 ? 'revoked-key' : `sandbox-pro-${i % sessions}`
  const base = `https://api.example.test/v1`
  const kind = step % 20
  let method = 'GET'
  let url = `${base}/pets?limit=2&__session=${session}`
  let status = 200
  let responseText: string | undefined = `[${PET(step)},${PET(step + 1)}]`
  let requestText: string | undefined
  let lost = false
  const responseHeaders = [header('content-type', 'application/json')]
  if (kind === 3 || kind === 4) {
    // A 429 then an early retry: Retry-After 2 s, the retry 0.7 s later.
    status = kind === 3 ? 429 : 200
    if (kind === 3) {
      responseText = '{"code":"rate_limited","message":"Slow down.","status":429}'
      responseHeaders.push(header('retry-after', '2'))
    }
  } else if (kind === 6 || kind === 7) {
    // A create whose 201 was lost on its way, then the same body again: a duplicate create.
    method = 'POST'
    url = `${base}/pets?__session=${session}`
    requestText = `{"name":"Nova ${step - (kind - 6)} ✨","categoryId":1}`
    status = 201
    responseText = PET(10_000 + step)
    lost = kind === 6
  } else if (kind === 9) {
    url = `${base}/pets/3?__session=${session}`
    responseText = PET(3)
    responseHeaders.push(header('sunset', 'Wed, 01 Jan 2031 00:00:00 GMT'))
  } else if (kind === 11) {
    url = `${base}/pets?api_key=(redacted)&__session=${session}`
  } else if (kind === 15) {
    status = 0
    responseText = undefined
  }
  if (key === 'revoked-key' && status !== 0) {
    status = 401
    responseText = '{"code":"invalid_api_key","message":"Revoked.","status":401}'
  }
  const own = i % 3 !== 0
  return {
    startedDateTime: at,
    time: 3,
    request: {
      method,
      url,
      headers: [header('authorization', `Bearer ${key}`), header('accept', 'application/json')],
      ...(requestText === undefined
        ? {}
        : { postData: { mimeType: 'application/json', text: requestText } }),
    },
    response: {
      status,
      headers: status === 0 ? [] : responseHeaders,
      content:
        responseText === undefined
          ? { size: 0, mimeType: 'x-unknown' }
          : { size: responseText.length, mimeType: 'application/json', text: responseText },
    },
    ...(status === 0 ? { _error: 'net::ERR_CONNECTION_RESET' } : {}),
    ...(lost && status !== 401 ? { _error: 'net::ERR_CONNECTION_CLOSED' } : {}),
    ...(own
      ? {
          _sandbox: {
            seq: step + 1,
            session,
            scenario: 'default',
            delayMs: 0,
            ...(lost && status !== 401 ? { fault: 'commit-then-drop', delivered: false } : {}),
          },
        }
      : {}),
  }
}

/** A whole synthetic HAR as text (small counts: tests). */
export const syntheticHarText = (count: number, sessions = 50): string =>
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'synthetic', version: '1' },
      entries: Array.from({ length: count }, (_, i) => syntheticHarEntry(i, sessions)),
    },
  })

/** Writes a synthetic HAR of `count` entries to `path` as it goes; resolves its size in bytes. */
export const writeSyntheticHar = async (
  path: string,
  count: number,
  sessions = 50,
): Promise<number> => {
  const out = createWriteStream(path)
  let bytes = 0
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await once(out, 'drain')
  }
  await write('{"log":{"version":"1.2","creator":{"name":"synthetic","version":"1"},"entries":[\n')
  for (let i = 0; i < count; i++)
    await write(`${i === 0 ? '' : ',\n'}${JSON.stringify(syntheticHarEntry(i, sessions))}`)
  await write('\n]}}\n')
  out.end()
  await once(out, 'finish')
  return bytes
}
