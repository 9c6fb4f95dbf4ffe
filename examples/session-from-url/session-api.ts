/** Session ids the sandbox accepts: 1-64 characters of A-Z a-z 0-9 . _ - */
const SESSION_ID = /^[A-Za-z0-9._-]{1,64}$/

/**
 * The sandbox session the page's own URL names (`?session=alice`), or
 * undefined when it names none (the sandbox then answers from `default`).
 * Throws for an id the sandbox would refuse, so the mistake shows at once.
 *
 * @example
 * sessionFromUrl('http://localhost:5173/?session=alice') // 'alice'
 */
export const sessionFromUrl = (href: string, param = 'session'): string | undefined => {
  const value = new URL(href).searchParams.get(param)
  if (value === null || value === '') return undefined
  if (!SESSION_ID.test(value)) {
    throw new TypeError(
      `Failed to read the sandbox session from the page URL: "${value}" is not 1-64 characters of A-Z a-z 0-9 . _ -.`,
    )
  }
  return value
}

/**
 * A `fetch` that sends `X-Sandbox-Session: <session>` on every call (none
 * when `session` is undefined). Give it to your API client.
 *
 * @example
 * const api = withSession(sessionFromUrl(location.href))
 * await api('/v1/pets', { headers: { authorization: 'Bearer sandbox-free' } })
 */
export const withSession =
  (session: string | undefined, fetchImpl: typeof fetch = globalThis.fetch): typeof fetch =>
  (input, init = {}) => {
    if (session === undefined) return fetchImpl(input, init)
    const headers = new Headers(init.headers)
    headers.set('X-Sandbox-Session', session)
    return fetchImpl(input, { ...init, headers })
  }
