import { expect } from 'vitest'
import type { WireResponse } from './target.js'

/** The Error body of the contract (§7), as a test reads it. */
export interface WireErrorBody {
  code: string
  message: string
  status: number
  details?: { field: string; message: string }[]
}

/**
 * Asserts that a response is the contract's Error answer: the HTTP status, JSON
 * content type, and a `{ code, message, status }` body (optional `details`)
 * whose `status` equals the HTTP status. Returns the body for further checks.
 *
 * @example
 * const error = expectApiError(response, 404, 'pet_not_found')
 */
export const expectApiError = (
  response: WireResponse,
  status: number,
  code: string,
): WireErrorBody => {
  const summary = `${response.status} ${response.body.slice(0, 300)}`
  expect(response.status, summary).toBe(status)
  expect(response.headers['content-type'], summary).toMatch(/^application\/json\b/)
  const body = JSON.parse(response.body) as WireErrorBody
  expect(body.code, summary).toBe(code)
  expect(body.status).toBe(status)
  expect(typeof body.message).toBe('string')
  expect(body.message.length).toBeGreaterThan(0)
  for (const key of Object.keys(body)) {
    expect(['code', 'message', 'status', 'details']).toContain(key)
  }
  if (body.details !== undefined) {
    expect(Array.isArray(body.details)).toBe(true)
    for (const detail of body.details) {
      expect(Object.keys(detail).sort()).toEqual(['field', 'message'])
      expect(typeof detail.field).toBe('string')
      expect(typeof detail.message).toBe('string')
    }
  }
  return body
}

/** The `field` of every detail of an error body, sorted. */
export const detailFields = (body: WireErrorBody): string[] =>
  (body.details ?? []).map((detail) => detail.field).sort()
