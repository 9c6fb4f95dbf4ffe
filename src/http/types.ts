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

/**
 * What a runtime does with the connection instead of answering: the operation
 * does not run (contract §8, §19).
 */
export type TransportFault =
  /** Fail the connection: `HttpResponse.error()` in MSW, a destroyed socket on a server. */
  | 'network-error'
  /**
   * No answer: hold the request for `delayMs` (the client normally gives up
   * first), then fail the connection as for `network-error`.
   */
  | 'timeout'
  /** The connection closes after the request with no byte of answer. */
  | 'empty-response'
  /** A gateway's 502 HTML page instead of the API's answer. */
  | 'proxy-error'

/**
 * A fault inside the answer the request gets (contract §19): the operation
 * runs, then src/faults shapes the answer's bytes and the runtime delivers them.
 */
export type AnswerFault =
  | 'reset-mid-body'
  | 'truncated-body'
  | 'stall-after-headers'
  | 'slow-body'
  | 'malformed-json'
  | 'commit-then-drop'

/** Every fault a scenario may choose: before the operation, or inside its answer. */
export type Fault = TransportFault | AnswerFault

/**
 * How a runtime sends a faulty answer: made once by src/faults from the answer
 * and the fault's name, delivered by each runtime as nearly as it can
 * (docs/scenarios.md, "Faults in each runtime").
 */
export interface FaultDelivery {
  /** The status line and headers to send (`Content-Length` included), or null: no byte of answer. */
  head: { status: number; headers: Record<string, string> } | null
  /** The body bytes to send after the head (all of them, or the part the fault keeps). */
  body: Uint8Array
  /** Send the body at this many bytes a second (`slow-body`); undefined: at once. */
  bytesPerSecond?: number | undefined
  /**
   * How the exchange ends once the body is sent: `complete` (a whole answer),
   * `close` (a clean close, FIN, before the answer is whole), `reset` (TCP
   * RST), `stall` (no byte for `holdMs`, then the connection is destroyed).
   */
  end: 'complete' | 'close' | 'reset' | 'stall'
  /** How long `stall` holds, or `reset` pauses after the body before the reset (the server's), in ms. */
  holdMs?: number | undefined
  /**
   * Sent without the runtime's CORS headers, as a gateway's own answer
   * (`proxy-error`): a cross-origin page's fetch fails.
   */
  withoutCors?: true | undefined
}

export interface SandboxResponse {
  status: number
  /** Response headers with their canonical names. */
  headers: Record<string, string>
  /** The body text (JSON), or null for no body (and for a body of `bytes`). */
  body: string | null
  /**
   * The body's bytes when it is not text (an OpenAPI document's `image/png`,
   * `application/octet-stream`: decision 0067); then `body` is null. Runtimes
   * send these with their `Content-Length`; the journal keeps them as base64.
   */
  bytes?: Uint8Array | undefined
  /** Wait this long before answering (or failing). */
  delayMs?: number | undefined
  /** Fail the connection (after `delayMs`) instead of answering, or a fault inside the answer. */
  fault?: Fault | undefined
  /**
   * An answer fault's setting, read by the scenario from the request: `slow-body`'s
   * bytes a second (`__bandwidth`), `stall-after-headers`' hold and `reset-mid-body`'s pause in
   * ms (`__delay`), `commit-then-drop`'s end (`__drop`: 1 a reset) and `proxy-error`'s CORS
   * headers (`__cors`: 1 kept).
   */
  faultSetting?: number | undefined
  /** How to send a faulty answer (set by the pipeline's last stage, for every fault but `network-error` and `timeout`). */
  delivery?: FaultDelivery | undefined
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
