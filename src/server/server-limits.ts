/**
 * The standalone server's limits on a request's head (contract §15). Past the
 * soft limits the server answers 414 `uri_too_long` / 431 `header_too_large`
 * with the JSON Error body; node:http itself stops parsing at `maxHeadBytes`
 * (its `maxHeaderSize`), so no client makes it buffer more per connection.
 */
export const SERVER_LIMITS = {
  /** The request target (path and query): 8 KiB. */
  maxTargetBytes: 8 * 1024,
  /** Request line and header lines together: 16 KiB (node's default). */
  maxHeaderBytes: 16 * 1024,
  /**
   * Header lines (Apache's default, LimitRequestFields). Counted as well as
   * bytes: node keeps only the first `maxHeadersCount` lines, so many short
   * lines would otherwise pass unseen (issue 24).
   */
  maxHeaderLines: 100,
  /** Where node:http stops reading a head: 64 KiB. */
  maxHeadBytes: 64 * 1024,
  /** Wrong admin tokens one address may send in a minute before it is refused with 429 (issue 24). */
  maxWrongAdminTokens: 10,
  /** Addresses whose wrong admin tokens are remembered; the oldest is forgotten first. */
  maxThrottledAddresses: 10_000,
  /** Dashboard event streams open at once; past it, 503 `stream_limit_reached` with Retry-After. */
  maxDashboardStreams: 100,
  /** Below this many characters the CLI warns that an admin token is easy to guess. */
  minAdminTokenLength: 16,
} as const
