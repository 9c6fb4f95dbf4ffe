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
} as const
