/** Response headers as a runtime has them: a fetch `Headers`, or a plain record in any case. */
export type HeaderSource =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>

const equalsIgnoringCase = (name: string, lower: string): boolean => {
  if (name.length !== lower.length) return false
  for (let i = 0; i < name.length; i++) {
    let code = name.charCodeAt(i)
    if (code >= 65 && code <= 90) code += 32
    if (code !== lower.charCodeAt(i)) return false
  }
  return true
}

const single = (value: string | readonly string[] | undefined): string | undefined =>
  value === undefined || typeof value === 'string' ? value : value.join(', ')

/**
 * One header's value, whatever the case of its name in `headers`; `lower` is
 * the lower-case name. Reads without allocating (a repeated header given as
 * an array is joined).
 *
 * @example
 * readHeader({ 'X-RateLimit-Limit': '60' }, 'x-ratelimit-limit') // '60'
 */
export const readHeader = (headers: HeaderSource, lower: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(lower) ?? undefined
  // An own key only: a name such as `constructor` must not find Object.prototype's (issue 24).
  const exact = Object.hasOwn(headers, lower) ? headers[lower] : undefined
  if (exact !== undefined) return single(exact)
  for (const name in headers) {
    if (equalsIgnoringCase(name, lower)) return single(headers[name])
  }
  return undefined
}
