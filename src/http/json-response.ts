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
): SandboxResponse => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(value),
})
