import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { parseAuthorization } from '../../auth/parse-authorization.js'
import { ApiError } from '../../http/api-error.js'

/** True for 127.0.0.0/8 and ::1, also when written as IPv4-mapped IPv6. */
export const isLoopbackAddress = (address: string | undefined): boolean => {
  if (address === undefined) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  return v4.startsWith('127.') || address === '::1'
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/**
 * Who may use the control API (contract §9): without an admin token, callers
 * on loopback only; with one, every caller that sends it as a bearer token
 * (loopback included). Returns the ApiError to answer, or undefined.
 *
 * @example
 * const denied = checkControlAccess(req, options.adminToken)
 */
export const checkControlAccess = (
  req: IncomingMessage,
  adminToken: string | undefined,
): ApiError | undefined => {
  if (adminToken === undefined) {
    return isLoopbackAddress(req.socket.remoteAddress)
      ? undefined
      : new ApiError(
          'forbidden',
          'The control API answers loopback callers only. Start the server with --admin-token to reach it from elsewhere.',
        )
  }
  const auth = parseAuthorization(req.headers.authorization)
  // Compare digests so neither the length nor the content leaks through timing.
  if (auth.kind === 'bearer' && timingSafeEqual(digest(auth.token), digest(adminToken))) {
    return undefined
  }
  return new ApiError(
    'forbidden',
    'The control API needs the admin token: send "Authorization: Bearer <admin token>".',
  )
}
