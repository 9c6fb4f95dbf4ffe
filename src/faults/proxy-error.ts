import type { ShapeFault } from './fault-answer.js'

/** The page a gateway sends: short HTML, as nginx or a cloud load balancer writes it. */
export const PROXY_ERROR_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n'

const PAGE_BYTES = new TextEncoder().encode(PROXY_ERROR_PAGE)

/**
 * 502 `text/html; charset=utf-8` with a gateway's page, whatever the answer
 * was: none of the API's headers (no rate-limit headers, no Error body) but
 * its `Request-Id` (contract §22: every answer has one) and, unless the
 * setting is 1 (`__cors=keep`), none of the sandbox's CORS headers: a stock
 * gateway's 502 has none, so a cross-origin page sees a failed fetch
 * (decision 0055). `HEAD` gets the head alone.
 */
export const proxyError: ShapeFault = (answer) => {
  const requestId = answer.headers['Request-Id']
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(PAGE_BYTES.byteLength),
    ...(requestId === undefined ? {} : { 'Request-Id': requestId }),
  }
  return {
    delivery: {
      head: { status: 502, headers },
      body: answer.head ? new Uint8Array(0) : PAGE_BYTES,
      end: 'complete',
      ...(answer.setting === 1 ? {} : { withoutCors: true }),
    },
    journal: { status: 502, headers, body: answer.head ? null : PROXY_ERROR_PAGE },
  }
}
