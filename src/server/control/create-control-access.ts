import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { parseAuthorization } from '../../auth/parse-authorization.js'
import { ApiError } from '../../http/api-error.js'
import { anonymousBucketName } from '../../rate-limit/anonymous-bucket-name.js'
import { readAuthorization } from '../read-authorization.js'
import { SERVER_LIMITS } from '../server-limits.js'

/** True for 127.0.0.0/8 and ::1, also when written as IPv4-mapped IPv6. */
export const isLoopbackAddress = (address: string | undefined): boolean => {
  if (address === undefined) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  return v4.startsWith('127.') || address === '::1'
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/** Who may use the control API, and the count of wrong admin tokens per address. */
export interface ControlAccess {
  readonly adminToken: string | undefined
  /** The ApiError to answer (403, or 429 while an address is throttled), or undefined. */
  check(req: IncomingMessage): ApiError | undefined
}

const WINDOW_MS = 60_000

/**
 * Who may use the control API (contract §9): without an admin token, callers
 * on loopback only; with one, every caller that sends it as a bearer token
 * (loopback included), compared in constant time. Wrong tokens are counted
 * per address (per IPv4 address, per IPv6 /64): past
 * `SERVER_LIMITS.maxWrongAdminTokens` in a minute, every request from that
 * address answers 429 `rate_limit_exceeded` with `Retry-After` until the
 * minute is over, right token or not, so guessing gains nothing (issue 24).
 * At most `SERVER_LIMITS.maxThrottledAddresses` addresses are remembered, the
 * oldest forgotten first. A missing token is not a guess: the dashboard's page
 * loads without one and then asks for it.
 *
 * @example
 * const access = createControlAccess({ adminToken: process.env.PETSTORE_SANDBOX_ADMIN_TOKEN })
 * const denied = access.check(req)
 */
export const createControlAccess = (options: {
  adminToken: string | undefined
  /** Real time, epoch ms (default `Date.now`). */
  now?: (() => number) | undefined
}): ControlAccess => {
  const { adminToken } = options
  const now = options.now ?? (() => Date.now())
  // Address → the start of its window and its wrong tokens in it; oldest first.
  const wrong = new Map<string, { since: number; count: number }>()
  const expected = adminToken === undefined ? undefined : digest(adminToken)
  return {
    adminToken,
    check(req) {
      if (expected === undefined) {
        return isLoopbackAddress(req.socket.remoteAddress)
          ? undefined
          : new ApiError(
              'forbidden',
              'The control API answers loopback callers only. Start the server with --admin-token to reach it from elsewhere.',
            )
      }
      const address = anonymousBucketName(`anon:${req.socket.remoteAddress ?? 'unknown'}`)
      const at = now()
      let record = wrong.get(address)
      if (record !== undefined && at - record.since >= WINDOW_MS) {
        wrong.delete(address)
        record = undefined
      }
      if (record !== undefined && record.count >= SERVER_LIMITS.maxWrongAdminTokens) {
        const seconds = Math.max(1, Math.ceil((record.since + WINDOW_MS - at) / 1000))
        return new ApiError(
          'rate_limit_exceeded',
          `Too many wrong admin tokens from this address: the control API refuses it for ${seconds} s. Retry after the time given in the Retry-After header.`,
          { headers: { 'Retry-After': String(seconds) } },
        )
      }
      // Repeated lines joined, as for the API: two tokens are no token (contract §2).
      const auth = parseAuthorization(readAuthorization(req))
      // Compare digests so neither the length nor the content leaks through timing.
      if (auth.kind === 'bearer' && timingSafeEqual(digest(auth.token), expected)) {
        wrong.delete(address)
        return undefined
      }
      if (auth.kind !== 'missing') {
        wrong.delete(address)
        wrong.set(address, { since: record?.since ?? at, count: (record?.count ?? 0) + 1 })
        if (wrong.size > SERVER_LIMITS.maxThrottledAddresses) {
          const oldest = wrong.keys().next()
          if (oldest.done !== true) wrong.delete(oldest.value)
        }
      }
      return new ApiError(
        'forbidden',
        'The control API needs the admin token: send "Authorization: Bearer <admin token>".',
      )
    },
  }
}
