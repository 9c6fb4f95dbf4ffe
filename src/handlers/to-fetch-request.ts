import type { SandboxRequest } from '../http/types.js'

/**
 * The sandbox's plain request as a Fetch `Request`, for a user's own handler
 * (MSW's `getResponse` or a plain function): the one conversion every runtime uses.
 *
 * @example
 * const response = await handler(toFetchRequest(request))
 */
export const toFetchRequest = (request: SandboxRequest): Request =>
  new Request(request.url, {
    method: request.method,
    headers: Object.entries(request.headers).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
    body:
      request.method === 'GET' || request.method === 'HEAD' || request.body === null
        ? null
        : new Uint8Array(request.body),
  })
