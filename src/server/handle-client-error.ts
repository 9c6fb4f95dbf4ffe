import type { Duplex } from 'node:stream'
import { ApiError } from '../http/api-error.js'

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 413: 'Payload Too Large' }

/**
 * node:http's `clientError`: a request that is not valid HTTP/1.1 (bad
 * request line, header characters, oversized headers, a body that breaks its
 * framing). Answers a JSON Error body and closes; a slow or vanished client
 * is just disconnected, because nobody is there to read an answer.
 *
 * @example
 * server.on('clientError', handleClientError)
 */
export const handleClientError = (error: Error & { code?: string }, socket: Duplex): void => {
  const code = error.code ?? ''
  if (
    !socket.writable ||
    code === 'ECONNRESET' ||
    code === 'ERR_HTTP_REQUEST_TIMEOUT' ||
    code === 'HPE_HEADER_OVERFLOW_TIMEOUT'
  ) {
    socket.destroy()
    return
  }
  const apiError =
    code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('payload_too_large', 'The request headers are too large.')
      : new ApiError(
          'invalid_parameter',
          `The request is not valid HTTP/1.1 (${code || 'parse error'}).`,
          {
            details: [{ field: '(request)', message: 'must be a valid HTTP/1.1 request' }],
          },
        )
  const { status, body } = apiError.toResponse()
  const text = body ?? ''
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  )
}
