/**
 * What the conformance suite needs from a runtime: a way to send a request to
 * the API and a way to steer the sandbox. Each runtime (in-process MSW, the
 * standalone server over HTTP, a real browser) provides one `ConformanceTarget`
 * and runs the very same suite.
 */
export interface WireRequest {
  method: string
  /** Path below the API base, with query: `/pets?limit=5`. */
  path: string
  /** A list of values: the header sent once per value, as a client repeating it does. */
  headers?: Record<string, string | readonly string[]>
  body?: string | Uint8Array<ArrayBuffer>
}

/**
 * The headers as name-value pairs, a repeated header once per value: what a
 * Fetch client takes (its `Headers` joins repeated values with ", ").
 *
 * @example
 * headerPairs({ authorization: ['Bearer a', 'Bearer b'] }) // [['authorization', 'Bearer a'], ['authorization', 'Bearer b']]
 */
export const headerPairs = (headers: WireRequest['headers'] = {}): [string, string][] =>
  Object.entries(headers).flatMap(([name, value]) =>
    typeof value === 'string' ? [[name, value]] : value.map((one): [string, string] => [name, one]),
  )

/** True when a request repeats a header: a Fetch client would send it joined, on one line. */
export const repeatsHeader = (request: WireRequest): boolean =>
  Object.values(request.headers ?? {}).some((value) => typeof value !== 'string')

export interface WireResponse {
  status: number
  /** Lower-case header names. */
  headers: Record<string, string>
  body: string
}

/** The sandbox's controls, asynchronous so that they can travel over HTTP or into a page. */
export interface ConformanceControls {
  reset(): Promise<void>
  setClock(time: string): Promise<void>
  advanceClock(ms: number): Promise<void>
  createKey(options: { plan: string; perMinute?: number; perDay?: number }): Promise<string>
  revokeKey(key: string): Promise<void>
  setScenario(name: string): Promise<void>
  /** The session's journal, operation and status of each entry (the own-handler part reads it). */
  journal?(): Promise<{ operation: string | null; status: number | null }[]>
}

export interface ConformanceTarget {
  /** Shown in test titles. */
  name: string
  /** The API's base URL as the client sees it, e.g. `https://api.example.test/v1`. */
  baseUrl: string
  /**
   * Sends a request and resolves with the response, whatever its status. It
   * rejects when the connection fails without an answer (the `network-error`
   * and `timeout` scenarios, a flaky request): the suite asserts exactly that.
   */
  send(request: WireRequest): Promise<WireResponse>
  controls: ConformanceControls
  /**
   * The same runtime inside session `id` (contract §12): every request carries
   * `X-Sandbox-Session: <id>` and the controls act on that session only.
   */
  session(id: string): ConformanceTarget
}

/**
 * Wraps a target so that every request it sends carries `X-Sandbox-Session`
 * (unless the request names a session itself), steered by the session's own
 * controls. Each runtime supplies how its controls reach a session.
 *
 * @example
 * session: (id) => inSession(target, id, localControls(sandbox.session(id)))
 */
export const inSession = (
  base: ConformanceTarget,
  id: string,
  controls: ConformanceControls,
): ConformanceTarget => ({
  name: `${base.name} in session ${id}`,
  get baseUrl() {
    return base.baseUrl
  },
  send: ({ headers = {}, ...request }) =>
    base.send({
      ...request,
      headers: Object.keys(headers).some((name) => name.toLowerCase() === 'x-sandbox-session')
        ? headers
        : { 'x-sandbox-session': id, ...headers },
    }),
  controls,
  session: (other) => base.session(other),
})
