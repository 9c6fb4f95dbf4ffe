import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { ApiError } from '../../http/api-error.js'

/**
 * The host name of a `Host` header: lower case, without the port, brackets or
 * a trailing dot. The whole value is read (issue 24): `[::1].evil.example`
 * is no IPv6 literal, so it comes back as it is and matches no loopback name.
 */
export const hostNameOf = (host: string): string => {
  const text = host.trim().toLowerCase()
  if (text.startsWith('[')) return /^\[([0-9a-f:.]+)\](?::[0-9]*)?$/.exec(text)?.[1] ?? text
  const name = text.replace(/:[0-9]*$/, '')
  return name.endsWith('.') ? name.slice(0, -1) : name
}

/** `localhost`, `*.localhost` (RFC 6761), 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export const isLoopbackHostName = (name: string): boolean => {
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  const v4 = name.startsWith('::ffff:') ? name.slice(7) : name
  if (isIP(v4) === 4) return v4.startsWith('127.')
  return isIP(name) === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(name)
}

/**
 * Contract §14, first half: the control API answers only a `Host` that is a
 * loopback name or address, or one named by `--allowed-host`, so a rebinding
 * DNS name never reaches it; and only a request whose `Origin` (when sent) is
 * the server's own, so no page of another origin does. Returns the ApiError to
 * answer, or undefined.
 *
 * @example
 * const denied = checkControlOrigin(req, ['sandbox.internal'])
 */
export const checkControlOrigin = (
  req: IncomingMessage,
  allowedHosts: readonly string[],
): ApiError | undefined => {
  const host = req.headers.host
  const name = host === undefined ? '' : hostNameOf(host)
  if (!isLoopbackHostName(name) && !allowedHosts.some((h) => hostNameOf(h) === name)) {
    return new ApiError(
      'forbidden',
      'The control API answers a loopback Host only (localhost, 127.0.0.1, [::1]). Start the server with --allowed-host NAME to reach it by another name.',
    )
  }
  const origin = req.headers.origin
  if (origin !== undefined && origin.toLowerCase() !== `http://${String(host).toLowerCase()}`) {
    return new ApiError(
      'forbidden',
      "The control API refuses cross-site requests: the Origin must be the server's own.",
    )
  }
  return undefined
}
