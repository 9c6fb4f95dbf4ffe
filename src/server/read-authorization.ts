import type { IncomingMessage } from 'node:http'

const isAuthorization = (name: string): boolean =>
  name.length === 13 &&
  (name === 'authorization' ||
    name === 'Authorization' ||
    // Another casing: rare, and the only case that builds a string.
    name.toLowerCase() === 'authorization')

const joinAll = (raw: readonly string[]): string => {
  const values: string[] = []
  for (let i = 0; i < raw.length; i += 2)
    if (isAuthorization(raw[i] as string)) values.push(raw[i + 1] as string)
  return values.join(', ')
}

/**
 * The `Authorization` value as a Fetch `Headers` reads it: every line joined
 * with ", ". node:http keeps only the first of repeated `Authorization`
 * lines, so `Bearer a` then `Bearer b` would pass as the key `a`; joined, it is
 * not `Bearer <token>` and is answered 401 `malformed_authorization` (contract
 * §2), as in the MSW and Playwright runtimes. The hot path: one pass over
 * `rawHeaders`, comparing names by length first, allocating nothing unless a
 * second line is found.
 *
 * @example
 * readAuthorization(req) // 'Bearer a, Bearer b' for two lines
 */
export const readAuthorization = (req: IncomingMessage): string | undefined => {
  const first = req.headers.authorization
  if (first === undefined) return undefined
  const raw = req.rawHeaders
  let seen = 0
  for (let i = 0; i < raw.length; i += 2) {
    if (isAuthorization(raw[i] as string) && ++seen > 1) return joinAll(raw)
  }
  return first
}
