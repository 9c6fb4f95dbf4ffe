/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and are never passed on. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/**
 * The lower-case names a `Connection` header lists, which are hop-by-hop too.
 *
 * @example
 * connectionTokens('close, X-Trace') // Set { 'close', 'x-trace' }
 */
export const connectionTokens = (connection: string | undefined): ReadonlySet<string> => {
  if (connection === undefined || connection === '') return EMPTY
  return new Set(connection.split(',').map((token) => token.trim().toLowerCase()))
}

const EMPTY: ReadonlySet<string> = new Set()

/**
 * True for a header that must not be passed on by a proxy: `lower` is the
 * lower-case name, `listed` what the message's `Connection` header names.
 *
 * @example
 * isHopByHop('transfer-encoding') // true
 */
export const isHopByHop = (lower: string, listed: ReadonlySet<string> = EMPTY): boolean =>
  HOP_BY_HOP.has(lower) || listed.has(lower)
