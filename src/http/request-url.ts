/**
 * What the pipeline reads of a request's URL: a WHATWG URL's own fields, with
 * the URL itself made only when something asks for it (a scenario's hooks,
 * upstream mode). Parsing every request with `new URL` was a fifth of the
 * core's time (decision 0039).
 */
export interface RequestUrl extends UrlFields {
  /** The WHATWG URL (made once, on first use). */
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
    url?: URL,
  ) {
    this.#url = url
  }
  get searchParams(): URLSearchParams {
    // As `URL.searchParams`: the query parsed as application/x-www-form-urlencoded.
    this.#params ??= this.#url?.searchParams ?? new URLSearchParams(this.search)
    return this.#params
  }
  toURL(): URL {
    this.#url ??= new URL(this.href)
    return this.#url
  }
}

// What a URL parser would leave exactly as written (decision 0039): `http(s)://`, a
// lower-case host name or dotted-quad address and a port, a path of characters kept as they
// are (no `%`, `\`, dot segment), a query without characters it would encode (no `'`, space,
// `"`, `<`, `>`, non-ASCII), no fragment. Anything else goes through `new URL`.
const PLAIN =
  /^(https?):\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*|(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))(?::([1-9][0-9]{0,4}))?(\/[A-Za-z0-9\-_~!$&()*+,;=:@/.]*)(\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*)?$/

const DEFAULT_PORT: Readonly<Record<string, string>> = { http: '80', https: '443' }

/**
 * A request's absolute URL, parsed; undefined when it is not one. The same
 * fields as `new URL(href)` (a property-based test compares them), without
 * it for the plain URLs clients send.
 *
 * @example
 * parseRequestUrl('http://127.0.0.1:4010/v1/pets?limit=5')?.pathname // '/v1/pets'
 */
export const parseRequestUrl = (href: string): RequestUrl | undefined => {
  const plain = PLAIN.exec(href)
  if (plain !== null) {
    const [, scheme, host, port, path, query] = plain as unknown as [
      string,
      string,
      string,
      string | undefined,
      string,
      string | undefined,
    ]
    const portKept = port === undefined || (Number(port) <= 65_535 && port !== DEFAULT_PORT[scheme])
    if (portKept && !hasDotSegment(path) && !host.startsWith('xn--') && !host.includes('.xn--')) {
      const origin = port === undefined ? `${scheme}://${host}` : `${scheme}://${host}:${port}`
      return new ParsedUrl(href, origin, path, query === undefined || query === '?' ? '' : query)
    }
  }
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return undefined
  }
  return new ParsedUrl(url.href, url.origin, url.pathname, url.search, url)
}

// `.` or `..` as a whole segment: a URL parser would resolve it.
const hasDotSegment = (path: string): boolean => {
  for (let at = path.indexOf('/.'); at !== -1; at = path.indexOf('/.', at + 1)) {
    const end = path.charCodeAt(at + 2) === 46 ? at + 3 : at + 2
    if (end === path.length || path.charCodeAt(end) === 47) return true
  }
  return false
}
