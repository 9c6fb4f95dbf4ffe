import type { IncomingMessage } from 'node:http'
import { ApiError } from '../http/api-error.js'
import { readHeaderText } from '../http/read-header-text.js'
import { SERVER_LIMITS } from './server-limits.js'

const headBytes = (req: IncomingMessage): number => {
  // The request line, then `name: value\r\n` per header line, as sent.
  let size = (req.method?.length ?? 0) + (req.url?.length ?? 0) + 12
  for (const part of req.rawHeaders) size += Buffer.byteLength(part) + 2
  return size
}

// A UTF-16 code unit is at most 3 bytes of UTF-8: a string this short cannot pass the limit.
const surelyWithin = (text: string, maxBytes: number): boolean => text.length * 3 <= maxBytes

const headSurelyWithin = (req: IncomingMessage): boolean => {
  let units = (req.method?.length ?? 0) + (req.url?.length ?? 0) + 12
  for (const part of req.rawHeaders) units += part.length + 2
  return units * 3 <= SERVER_LIMITS.maxHeaderBytes
}

/**
 * What the server refuses before routing (contract §15): an HTTP/1.1 request
 * without `Host` (400), a target over 8 KiB (414), a head over 16 KiB or over
 * 100 header lines (431; the server keeps one line more than the limit, so a
 * count past it means too many), and a `Transfer-Encoding` other than
 * `chunked` (501; node would read
 * `gzip, chunked` as if it were plain). Returns the ApiError, or undefined.
 *
 * @example
 * const refused = checkRequestHead(req)
 * if (refused) return writeNow(res, refused.toResponse())
 */
export const checkRequestHead = (req: IncomingMessage): ApiError | undefined => {
  const target = req.url ?? ''
  // The byte counts only when the lengths leave a doubt (the hot path counts none).
  if (
    !surelyWithin(target, SERVER_LIMITS.maxTargetBytes) &&
    Buffer.byteLength(target) > SERVER_LIMITS.maxTargetBytes
  ) {
    return new ApiError(
      'uri_too_long',
      `The request target is longer than ${SERVER_LIMITS.maxTargetBytes} bytes.`,
    )
  }
  if (req.rawHeaders.length / 2 > SERVER_LIMITS.maxHeaderLines) {
    return new ApiError(
      'header_too_large',
      `The request has more than ${SERVER_LIMITS.maxHeaderLines} header lines.`,
    )
  }
  if (!headSurelyWithin(req) && headBytes(req) > SERVER_LIMITS.maxHeaderBytes) {
    return new ApiError(
      'header_too_large',
      `The request headers are larger than ${SERVER_LIMITS.maxHeaderBytes} bytes.`,
    )
  }
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    return new ApiError('invalid_parameter', 'An HTTP/1.1 request needs a Host header.', {
      details: [{ field: 'Host', message: 'is required in HTTP/1.1' }],
    })
  }
  const encoding = req.headers['transfer-encoding']
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'chunked') {
    return new ApiError(
      'not_implemented',
      `Transfer-Encoding "${readHeaderText(encoding)}" is not supported: send the body as is or chunked.`,
    )
  }
  return undefined
}
