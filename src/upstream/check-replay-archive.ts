const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// A header value a server can send: Latin-1 text without CR, LF or NUL.
const FIELD_VALUE = /^[^\r\n\0\u0100-\uffff]*$/
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/
/**
 * The most bytes a replayed answer's own headers may take, as written (decision 0057): Node's
 * HTTP clients (fetch, node:http) read 16 KiB of headers at most, and the sandbox adds its own
 * (CORS, rate limit, request id: about 1 KiB), so 12 KiB leaves room for them.
 */
export const MAX_REPLAYED_HEAD_BYTES = 12 * 1024

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined

const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** What is wrong with one entry's response, or undefined when it can be served. */
const responseProblem = (entry: Record<string, unknown>): string | undefined => {
  const response = record(entry.response)
  if (response === undefined) return undefined
  const status = response.status
  // 0 (or `_error`): a failed connection, replayed as one.
  if (status === 0 || typeof entry._error === 'string') return undefined
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    return `response.status ${shown(status)} is not an HTTP status (a whole number from 100 to 599)`
  const headers = Array.isArray(response.headers) ? response.headers : []
  let headBytes = 0
  for (const [i, item] of headers.entries()) {
    const header = record(item)
    const name = header?.name
    const value = header?.value
    if (typeof name !== 'string' || typeof value !== 'string')
      return `response.headers[${i}] is not a { name, value } pair of strings`
    // HTTP/2 pseudo-headers (`:status`) in a browser's export are not served.
    if (name.startsWith(':')) continue
    if (!TOKEN.test(name)) return `response header name ${shown(name)} is not an HTTP token`
    if (!FIELD_VALUE.test(value))
      return `response header ${name}'s value ${shown(value)} has a line break, a NUL or a character past Latin-1`
    // As written: `name: value` and CRLF, one byte a character (Latin-1).
    headBytes += name.length + value.length + 4
    if (headBytes > MAX_REPLAYED_HEAD_BYTES)
      return `response headers take more than ${MAX_REPLAYED_HEAD_BYTES} bytes (${headers.length.toLocaleString('en-US')} headers): with the sandbox's own they would pass the 16 KiB of headers Node's HTTP clients read (HPE_HEADER_OVERFLOW), so no client could read the answer`
  }
  const content = record(response.content)
  if (content?.encoding === 'base64') {
    const text = content.text
    if (typeof text !== 'string' || !BASE64.test(text) || !decodes(text))
      return 'response.content.text is not valid base64 (its encoding says base64)'
  }
  return undefined
}

const decodes = (text: string): boolean => {
  try {
    atob(text)
    return true
  } catch {
    return false
  }
}

/**
 * The first entry of a recording that cannot be served as recorded (a status
 * outside 100-599 or not whole, a header name that is not a token, a value
 * with CR, LF, NUL or text past Latin-1, headers past 12 KiB that no Node
 * client could read, a body that says base64 and is not),
 * described with its number and request; undefined when every entry can be.
 * A recording is refused at load for it, never answered with 500 later.
 *
 * @example
 * replayArchiveProblem({ log: { entries: [{ request: { method: 'GET', url: 'https://x.test/v1/pets' }, response: { status: 1000 } }] } })
 * // 'entry 1 (GET https://x.test/v1/pets): response.status 1000 is not an HTTP status (a whole number from 100 to 599)'
 */
export const replayArchiveProblem = (har: {
  log: { entries: readonly unknown[] }
}): string | undefined => {
  for (const [i, item] of har.log.entries.entries()) {
    const entry = record(item)
    if (entry === undefined) continue
    const problem = responseProblem(entry)
    if (problem === undefined) continue
    const request = record(entry.request)
    const method = typeof request?.method === 'string' ? request.method : '?'
    const url = typeof request?.url === 'string' ? request.url : '?'
    return `entry ${i + 1} (${method} ${shown(url).replace(/^"|"$/g, '')}): ${problem}`
  }
  return undefined
}
