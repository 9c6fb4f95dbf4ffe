import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError } from '../http/api-error.js'
import { newRequestId } from '../journal/request-id.js'
import { SERVER_LIMITS } from './server-limits.js'

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
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nCache-Control: no-store\r\nRequest-Id: ${newRequestId()}\r\nConnection: close\r\n\r\n${text}`,
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

/** What node's parser has collected of the head so far (flushed every 32 header lines). */
interface ParserState {
  _headers?: unknown[]
  _url?: string
}

/**
 * A head past node's `maxHeaderSize`: the target (414) when the packet that
 * overflowed is still the request line, else the headers (431). node hands
 * over only the chunk it was parsing (a 1 MB target arrives in many), so the
 * request line is recognised by what the chunk holds: no line break, and only
 * a request target's characters (visible ASCII, no space) after an optional
 * `METHOD `, while the parser has collected no header line yet. A single
 * header value of more than 64 KiB without a space, sent in pieces, would be
 * read as a target: the best reading node allows (issue 24).
 */
const overflowError = (rawPacket: unknown, socket: Duplex): ApiError => {
  const text = Buffer.isBuffer(rawPacket) ? rawPacket.toString('latin1') : ''
  const parser = (socket as Duplex & { parser?: ParserState | null }).parser
  const headersSeen = (parser?._headers?.length ?? 0) > 0 || (parser?._url ?? '') !== ''
  return !headersSeen && /^([A-Z]+ )?[!-~]*$/.test(text)
    ? new ApiError(
        'uri_too_long',
        `The request target is longer than ${SERVER_LIMITS.maxTargetBytes} bytes.`,
      )
    : new ApiError(
        'header_too_large',
        `The request headers are larger than ${SERVER_LIMITS.maxHeaderBytes} bytes.`,
      )
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
      ? overflowError(error.rawPacket, socket)
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
