import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError } from '../http/api-error.js'

/**
 * Writes an Error answer straight to a socket and closes it: for requests
 * node:http never hands to a request listener (a parse error, CONNECT).
 *
 * @example
 * server.on('connect', (_req, socket) => writeErrorAndClose(socket, new ApiError('not_implemented', '…')))
 */
export const writeErrorAndClose = (socket: Duplex, apiError: ApiError): void => {
  const { status, body } = apiError.toResponse()
  const text = body ?? ''
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
  )
}

const answered = new WeakSet<Duplex>()

/**
 * Marks a connection as answered with a closing error, so a parse error in
 * the rest of its bytes ends it quietly instead of writing a second answer.
 */
export const markAnswered = (socket: Duplex): void => {
  answered.add(socket)
}

/**
 * A head past node's `maxHeaderSize`: the target alone when the packet that
 * overflowed is still the request line (no line break yet), else the headers.
 * node hands over only the chunk it was parsing, so this is a best guess.
 */
const overflowError = (rawPacket: unknown): ApiError => {
  const text = Buffer.isBuffer(rawPacket) ? rawPacket.toString('latin1', 0, 1024) : ''
  return /^[A-Z]+ /.test(text) && !text.includes('\n')
    ? new ApiError('uri_too_long', 'The request target is too long.')
    : new ApiError('header_too_large', 'The request headers are too large.')
}

/**
 * node:http's `clientError`: a request that is not valid HTTP/1.1 (bad
 * request line, header characters, oversized headers, a body that breaks its
 * framing). Answers a JSON Error body and closes; a slow or vanished client
 * is just disconnected, because nobody is there to read an answer.
 *
 * @example
 * server.on('clientError', handleClientError)
 */
export const handleClientError = (
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Duplex,
): void => {
  const code = error.code ?? ''
  if (answered.has(socket)) {
    socket.end()
    return
  }
  // Bytes after a `Connection: close` request: that request's answer, still to come, ends the
  // connection. Answering here as well would put a second response on the wire first.
  if (code === 'HPE_CLOSED_CONNECTION') return
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
      ? overflowError(error.rawPacket)
      : code === 'HPE_INVALID_TRANSFER_ENCODING'
        ? new ApiError(
            'not_implemented',
            'This Transfer-Encoding is not supported: send the body as is or chunked.',
          )
        : new ApiError(
            'invalid_parameter',
            `The request is not valid HTTP/1.1 (${code || 'parse error'}).`,
            {
              details: [{ field: '(request)', message: 'must be a valid HTTP/1.1 request' }],
            },
          )
  writeErrorAndClose(socket, apiError)
}
