/**
 * What the pipeline reads of a request's URL: a WHATWG URL's own fields, with
 * the URL itself made only when something asks for it (a scenario's hooks,
 * upstream mode). Parsing every request with `new URL` was a fifth of the
 * core's time (decision 0039).
 */
export interface RequestUrl extends UrlFields {
  /** A WHATWG URL of it (made once, on first use; changing it changes nothing here). */
  toURL(): URL
}

/** The fields of a URL the pipeline and the operations read (a `URL` has them too). */
export interface UrlFields {
  readonly href: string
  readonly origin: string
  readonly pathname: string
  /** `?…`, or `` when the query is empty, as `URL.search`. */
  readonly search: string
  readonly searchParams: URLSearchParams
}

class ParsedUrl implements RequestUrl {
  #params: URLSearchParams | undefined
  #url: URL | undefined
  constructor(
    readonly href: string,
    readonly origin: string,
    readonly pathname: string,
    readonly search: string,
  ) {}
  get searchParams(): URLSearchParams {
    // As `URL.searchParams`: the query parsed as application/x-www-form-urlencoded.
    this.#params ??= new URLSearchParams(this.search)
    return this.#params
  }
  toURL(): URL {
    // Its own: a scenario's hook that changes it changes nothing the pipeline reads.
    this.#url ??= new URL(this.href)
    return this.#url
  }
}

// What a URL parser would leave exactly as written (decision 0039): `http(s)://`, a
// lower-case host name or dotted-quad address, a port that is not the scheme's default, a
// path of characters kept as they are (no `%`, `\\`, dot segment), a query without the
// characters it would encode (no `'`, space, `"`, `<`, `>`, non-ASCII), no fragment.
// Anything else goes through `new URL`.
const PLAIN_ORIGIN =
  /^(https?):\/\/(?:(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])|(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(?::([1-9][0-9]{0,4}))?$/

const table = (chars: string): Uint8Array => {
  const kept = new Uint8Array(128)
  for (let code = 48; code <= 57; code++) kept[code] = 1
  for (let code = 65; code <= 90; code++) kept[code] = 1
  for (let code = 97; code <= 122; code++) kept[code] = 1
  for (const char of chars) kept[char.charCodeAt(0)] = 1
  return kept
}
const PATH_KEPT = table('-_~!$&()*+,;=:@/.')
const QUERY_KEPT = table('-._~!$&()*+,;=:@/?%')

/** True when `origin` (scheme, host, port; no path) is one a URL parser keeps as written. */
const plainOrigin = (origin: string): boolean => {
  const parts = PLAIN_ORIGIN.exec(origin)
  if (parts === null || origin.includes('xn--')) return false
  const [, scheme, port] = parts as unknown as [string, string, string | undefined]
  const defaultPort = scheme === 'http' ? '80' : '443'
  return port === undefined || (Number(port) <= 65_535 && port !== defaultPort)
}

// Every request to one server names the same origin: the last one found plain is remembered.
let lastOrigin = ''

/**
 * Whether `href` is an absolute URL (`URL.canParse`), at the cost of a
 * prefix compare for a URL of the origin the last request named: after a
 * plain origin and its `/`, a URL parser fails on nothing (the path, query and
 * fragment states have no failure), decision 0064.
 *
 * @example
 * isAbsoluteUrl('http://127.0.0.1:4010/v1/pets') // true
 * isAbsoluteUrl('/v1/pets') // false
 */
export const isAbsoluteUrl = (href: string): boolean =>
  (lastOrigin !== '' && href.startsWith(lastOrigin) && href.charCodeAt(lastOrigin.length) === 47) ||
  canParse(href)

/** Latin-1 characters beyond ASCII: what Node 20's optimized `URL.canParse` misreads. */
const LATIN1_BEYOND_ASCII = /[\x80-\xff]/

/**
 * `URL.canParse`, but right. Once optimized, Node 20's `URL.canParse` answers
 * false for a valid URL held as a one-byte string with a character from
 * U+0080 to U+00FF (`http://bücher.de/`: true on its first calls, false once
 * hot), so such a URL is parsed by `new URL`.
 */
const canParse = (href: string): boolean => {
  if (!LATIN1_BEYOND_ASCII.test(href)) return URL.canParse(href)
  try {
    new URL(href)
    return true
  } catch {
    return false
  }
}

/**
 * A request's absolute URL, parsed; undefined when it is not one. The same
 * fields as `new URL(href)` (a property-based test compares them), without
 * it for the plain URLs clients send.
 *
 * @example
 * parseRequestUrl('http://127.0.0.1:4010/v1/pets?limit=5')?.pathname // '/v1/pets'
 */
export const parseRequestUrl = (href: string): RequestUrl | undefined => {
  let pathStart = -1
  if (lastOrigin !== '' && href.startsWith(lastOrigin) && href.charCodeAt(lastOrigin.length) === 47)
    pathStart = lastOrigin.length
  else {
    const scheme = href.indexOf('://')
    const slash = scheme === -1 ? -1 : href.indexOf('/', scheme + 3)
    if (slash !== -1 && plainOrigin(href.slice(0, slash))) {
      lastOrigin = href.slice(0, slash)
      pathStart = slash
    }
  }
  if (pathStart !== -1) {
    const plain = readPlainTarget(href, pathStart)
    if (plain !== undefined) return new ParsedUrl(href, lastOrigin, plain[0], plain[1])
  }
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return undefined
  }
  return new ParsedUrl(url.href, url.origin, url.pathname, url.search)
}

/** The path and search of `href` from `start`, when a URL parser keeps them as written. */
const readPlainTarget = (href: string, start: number): [string, string] | undefined => {
  let query = -1
  for (let at = start; at < href.length; at++) {
    const code = href.charCodeAt(at)
    if (code === 63) {
      query = at
      break
    }
    if (code >= 128 || PATH_KEPT[code] === 0) return undefined
  }
  if (query !== -1)
    for (let at = query + 1; at < href.length; at++) {
      const code = href.charCodeAt(at)
      if (code >= 128 || QUERY_KEPT[code] === 0) return undefined
    }
  const path = query === -1 ? href.slice(start) : href.slice(start, query)
  if (hasDotSegment(path)) return undefined
  // `?` alone is an empty query: `search` is ``, as URL's.
  return [path, query === -1 || query === href.length - 1 ? '' : href.slice(query)]
}

// `.` or `..` as a whole segment: a URL parser would resolve it.
const hasDotSegment = (path: string): boolean => {
  for (let at = path.indexOf('/.'); at !== -1; at = path.indexOf('/.', at + 1)) {
    const end = path.charCodeAt(at + 2) === 46 ? at + 3 : at + 2
    if (end === path.length || path.charCodeAt(end) === 47) return true
  }
  return false
}
