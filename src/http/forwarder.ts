/**
 * How the core reaches an upstream deployment without knowing the runtime:
 * the runtime injects a `Forwarder` (node:http on the server, `fetch` with
 * msw's `bypass` under MSW, the core's `fetch` in Playwright: decision 0054). See contract §17.
 */

/** A request on its way to the upstream, the sandbox's own parameters and headers removed. */
export interface UpstreamRequest {
  method: string
  /** The absolute upstream URL: its base URL, the path below the base path, the query. */
  url: string
  /** Lower-case names; hop-by-hop headers, `host` and `content-length` removed. */
  headers: Readonly<Record<string, string>>
  body: Uint8Array | null
  /** Aborted when the sandbox gives up (the upstream timeout): stop and free the connection. */
  signal: AbortSignal
  /**
   * The most bytes the answer's body may have, as received and once decoded
   * (gzip, deflate, br): past it, stop reading and reply `too-large`.
   */
  maxBodyBytes: number
  /** The upstream timeout in ms: the whole exchange, body included (for clients with their own). */
  timeoutMs: number
}

/** What came back: an answer, or why none did. */
export type UpstreamReply =
  | {
      kind: 'answer'
      status: number
      /** Name and value pairs as received (names in their case), hop-by-hop headers removed. */
      headers: ReadonlyArray<readonly [string, string]>
      /** The body's bytes as they are to be passed on (empty for none). */
      body: Uint8Array
      /**
       * The body as text, when `body` is content-encoded (gzip, br…) and the
       * runtime decoded it for the validator and the journal; else undefined
       * (the core decodes `body` as UTF-8).
       */
      text?: string | undefined
    }
  /** Connection refused or reset, DNS or TLS failure: one line saying which. */
  | { kind: 'unavailable'; reason: string }
  /** The body (as received, or decoded) passed `maxBodyBytes`: reading stopped there. */
  | { kind: 'too-large'; decoded: boolean }

/**
 * Sends one request to the upstream. Resolves with the answer or
 * `unavailable`; it should not reject (a rejection counts as `unavailable`).
 * When `request.signal` aborts, the sandbox has answered 504 already.
 */
export type Forwarder = (request: UpstreamRequest) => Promise<UpstreamReply>
