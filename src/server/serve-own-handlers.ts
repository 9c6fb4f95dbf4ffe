import type { IncomingMessage, ServerResponse } from 'node:http'
import { LIMITS } from '../contract/limits.js'
import { answerWithOwnHandlers } from '../handlers/answer-with-own-handlers.js'
import type { OwnHandler } from '../handlers/check-own-handlers.js'
import { loadMswOnDemand } from '../handlers/load-msw-on-demand.js'
import { ApiError } from '../http/api-error.js'
import { newRequestId } from '../journal/request-id.js'
import { type BodyReadResult, readRequestBody } from './read-request-body.js'
import { writeNow } from './write-sandbox-response.js'

const toHeaders = (req: IncomingMessage): Headers => {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]
    const value = req.rawHeaders[i + 1]
    if (name !== undefined && value !== undefined) headers.append(name, value)
  }
  return headers
}

/**
 * Passes a request the core does not own to the user's own handlers (MSW
 * handlers through msw's `getResponse`, plain functions called directly;
 * Fetch objects only exist on this path). Resolves false when none answers.
 *
 * @example
 * if (!(await serveOwnHandlers(handlers, req, res, url))) answerNotFound(res)
 *
 * `preRead` is the request body when the caller has read it already.
 */
export const serveOwnHandlers = async (
  handlers: readonly OwnHandler[],
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  preRead?: Uint8Array | null,
): Promise<boolean> => {
  const read: BodyReadResult =
    preRead !== undefined
      ? { kind: 'body', body: preRead }
      : await readRequestBody(req, LIMITS.maxBodyBytes)
  if (read.kind === 'aborted') {
    req.socket.destroy()
    return true
  }
  if (read.kind === 'too-large') {
    const response = new ApiError(
      'payload_too_large',
      `The request body is larger than ${LIMITS.maxBodyBytes} bytes.`,
      { headers: { Connection: 'close' } },
    ).toResponse()
    req.resume()
    writeNow(res, response)
    return true
  }
  const method = req.method ?? 'GET'
  const request = new Request(url, {
    method,
    headers: toHeaders(req),
    body:
      method === 'GET' || method === 'HEAD' || read.body === null
        ? null
        : new Uint8Array(read.body),
  })
  const response = await answerWithOwnHandlers(handlers, request, loadMswOnDemand)
  if (response === undefined) return false
  if (response.type === 'error') {
    req.socket.destroy()
    return true
  }
  const body = Buffer.from(await response.arrayBuffer())
  const headers: Record<string, string> = Object.fromEntries(response.headers)
  headers['content-length'] = String(body.byteLength)
  delete headers['transfer-encoding']
  // Every answer has a Request-Id (contract §22); your handler's own is kept.
  if (headers['request-id'] === undefined && !res.hasHeader('request-id'))
    headers['request-id'] = newRequestId()
  res.writeHead(response.status, headers)
  res.end(method === 'HEAD' ? undefined : body)
  return true
}
