import type { SandboxResponse } from '../http/types.js'

// Headers whose URLs lead the client on: to the upstream's base URL they would leave the sandbox.
const LINKING: ReadonlySet<string> = new Set(['link', 'location', 'content-location'])

/**
 * The upstream's links (`Link`, `Location`) pointed at the sandbox: a client
 * following the next page must stay in front of the upstream, as a reverse
 * proxy rewrites them. Everything else is passed on as received.
 *
 * @example
 * relink([['Link', '<https://staging.test/v1/pets?cursor=x>; rel="next"']], 'https://staging.test/v1', 'http://127.0.0.1:4010/v1')
 */
export const relink = (
  pairs: ReadonlyArray<readonly [string, string]>,
  from: string | undefined,
  to: string,
): ReadonlyArray<readonly [string, string]> => {
  if (from === undefined || from === to) return pairs
  let out: [string, string][] | undefined
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i] as readonly [string, string]
    if (!LINKING.has(name.toLowerCase()) || !value.includes(from)) continue
    out ??= pairs.map(([n, v]) => [n, v])
    out[i] = [name, value.replaceAll(from, to)]
  }
  return out ?? pairs
}

/**
 * An answer passed on as received (`exact`); `headers` joins repeated ones for
 * the journal and the validator, `body` is its text (none for HEAD).
 *
 * @example
 * const response = exactResponse('GET', 200, [['Content-Type', 'application/json']], bytes, '[]')
 */
export const exactResponse = (
  method: string,
  status: number,
  pairs: ReadonlyArray<readonly [string, string]>,
  body: Uint8Array,
  text: string,
): SandboxResponse => {
  // Any name an upstream sends (`__proto__` too) stays a header: a Map, then an object from it.
  const joined = new Map<string, string>()
  for (const [name, value] of pairs) {
    const seen = joined.get(name)
    joined.set(name, seen === undefined ? value : `${seen}, ${value}`)
  }
  return {
    status,
    headers: Object.fromEntries(joined),
    body: method === 'HEAD' || text === '' ? null : text,
    exact: { headers: pairs, body },
  }
}
