import type { SandboxResponse } from './types.js'

/**
 * A JSON response: the body serialized, `Content-Type: application/json`.
 *
 * @example
 * return jsonResponse(201, pet, { Location: '/v1/pets/26' })
 */
export const jsonResponse = (
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): SandboxResponse => {
  // A loop, not a spread: spreading header records is slow in V8 (decision 0021).
  const all: Record<string, string> = { 'Content-Type': 'application/json' }
  for (const name in headers) all[name] = headers[name] as string
  return { status, headers: all, body: JSON.stringify(value) }
}
