/**
 * `Access-Control-Expose-Headers` for an upstream's answer passed on: the
 * sandbox's list, then each name the upstream exposed that it lacks (compared
 * without case), so browser code reads the upstream's `ETag` or `X-Request-Id`
 * as it would from the upstream itself (issue 31). A `*` from either side stays.
 *
 * @example
 * mergeExposeHeaders('X-RateLimit-Limit, Retry-After', ['ETag, X-Request-Id'])
 * // 'X-RateLimit-Limit, Retry-After, ETag, X-Request-Id'
 */
export const mergeExposeHeaders = (ours: string, theirs: readonly string[]): string => {
  const names = ours
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const seen = new Set(names.map((name) => name.toLowerCase()))
  for (const value of theirs)
    for (const part of value.split(',')) {
      const name = part.trim()
      if (name === '' || seen.has(name.toLowerCase())) continue
      seen.add(name.toLowerCase())
      names.push(name)
    }
  return names.join(', ')
}
