import type { SandboxResponse } from './types.js'

/**
 * The `errorCodes` setting (contract §16) applied to an answer: an Error
 * body whose `code` the map renames gets the deployment's code; everything
 * else (a success, an unmapped code) is returned as it is.
 *
 * @example
 * renameErrorCode(response, { pet_not_found: 'not_found' })
 */
export const renameErrorCode = (
  response: SandboxResponse,
  codes: Readonly<Record<string, string | undefined>>,
): SandboxResponse => {
  if (response.status < 400 || response.body === null) return response
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    return response
  }
  if (typeof body !== 'object' || body === null || !('code' in body)) return response
  // An own key only: a code such as `constructor` must not find Object.prototype's (issue 24).
  const renamed =
    typeof body.code === 'string' && Object.hasOwn(codes, body.code) ? codes[body.code] : undefined
  if (renamed === undefined) return response
  return { ...response, body: JSON.stringify({ ...body, code: renamed }) }
}
