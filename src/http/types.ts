/**
 * The plain request and response the runtime-free core speaks. Every runtime
 * (MSW handlers, node:http server, Playwright route) converts to and from these.
 */
export interface SandboxRequest {
  /** Upper-case HTTP method. */
  method: string
  /** The absolute request URL, e.g. `http://127.0.0.1:4010/v1/pets?limit=5`. */
  url: string
  /** Request headers with lower-case names. Repeated headers joined with ", ". */
  headers: Readonly<Record<string, string | undefined>>
  /**
   * The raw body bytes, or null when there is none. A runtime that stops
   * reading early may pass only the first `LIMITS.maxBodyBytes + 1` bytes.
   */
  body: Uint8Array | null
  /** The client's network address, when the runtime knows it. */
  clientAddress?: string | undefined
}

/** What a runtime does with the connection instead of (or before) answering. */
export type TransportFault =
  /** Fail the connection: `HttpResponse.error()` in MSW, a destroyed socket on a server. */
  | 'network-error'
  /**
   * No answer: hold the request for `delayMs` (the client normally gives up
   * first), then fail the connection as for `network-error`.
   */
  | 'timeout'

export interface SandboxResponse {
  status: number
  /** Response headers with their canonical names. */
  headers: Record<string, string>
  /** The body text (JSON), or null for no body. */
  body: string | null
  /** Wait this long before answering (or failing). */
  delayMs?: number | undefined
  /** Fail the connection (after `delayMs`) instead of answering. */
  fault?: TransportFault | undefined
  /**
   * An answer passed on from an upstream deployment, to be written as
   * received: runtimes write these headers and bytes instead of `headers` and
   * `body` (which hold the same answer as the journal and the validator read it).
   */
  exact?: ExactAnswer | undefined
}

/** An answer as an upstream sent it: header names as sent, repeated headers kept, the body's bytes. */
export interface ExactAnswer {
  /** Name and value pairs in the order received, hop-by-hop headers removed. */
  headers: ReadonlyArray<readonly [string, string]>
  /** The body's bytes (empty for none). */
  body: Uint8Array
}
