import type { OperationId } from '../contract/operation-ids.js'
import type { JudgeTools } from './judge-tools.js'

/** A query or header value to match: the text itself (numbers and booleans as text), or a RegExp. */
export type MatchValue = string | number | boolean | RegExp

/**
 * Which requests to find in the journal. Every field given must hold (an
 * omitted field matches anything): `requests.find`, `requests.expect`, the
 * `toHaveReceived` matcher and the control API's filters take it.
 */
export interface RequestMatch {
  /** The method, any case (`POST`), or any of several. */
  method?: string | readonly string[] | undefined
  /**
   * The URL's path: `/v1/pets` (exactly), a pattern with `:param` segments
   * (`/v1/pets/:petId`, each matching one segment), a full URL without the
   * query (`https://api.example.test/v1/pets`), or a RegExp tested on the path.
   */
  path?: string | RegExp | undefined
  /** Query parameters that must be present with these values (others may be present too). */
  query?: Readonly<Record<string, MatchValue>> | undefined
  /**
   * Request headers that must be present with these values, names in any
   * case. Values are matched as the journal shows them (secrets redacted),
   * except `Authorization: Bearer <key>`, which matches the key it names.
   */
  headers?: Readonly<Record<string, MatchValue>> | undefined
  /** The JSON body holds this (objects: these keys at least, recursively; arrays: these elements); a string matches a non-JSON body's text. */
  body?: unknown
  /** The status the client got, or any of several; null for a failed connection (no response). */
  status?: number | null | readonly (number | null)[] | undefined
  /** The routed operation: `listPets`, `createPet`, `getPet`, or an added one's id (an OpenAPI document's `operationId`, `METHOD /path`). */
  operation?: OperationId | undefined
}

/** How many requests `requests.expect` wants (default: at least one). */
export interface ExpectOptions {
  /** Exactly this many matching requests (0: none). */
  times?: number | undefined
}

/**
 * The deepest `body` a match may have (arrays and objects, counted from 1):
 * the comparison recurses once a level, so a bound keeps it off the stack's
 * end. A journaled body may be deeper; it is compared only as deep as the match.
 */
export const MAX_MATCH_BODY_DEPTH = 1_000

/** True when `value` nests arrays or objects deeper than `limit`; iterative. */
const deeperThan = (value: unknown, limit: number): boolean => {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number]
    if (typeof item !== 'object' || item === null || item instanceof RegExp) continue
    if (depth > limit) return true
    for (const inner of Object.values(item)) stack.push([inner, depth + 1])
  }
  return false
}

const FIELDS = new Set(['method', 'path', 'query', 'headers', 'body', 'status', 'operation'])

const fail = (reason: string): never => {
  throw new TypeError(`Failed to match requests: ${reason}.`)
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RegExp)

const checkValues = (field: string, values: unknown): void => {
  if (values === undefined) return
  if (!isRecord(values))
    fail(`${field} must be an object of names and values, e.g. { limit: '5' }. Fix the match`)
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    const type = typeof value
    if (!(type === 'string' || type === 'number' || type === 'boolean' || value instanceof RegExp))
      fail(
        `${field}.${name} must be a string, a number, a boolean or a RegExp, got ${value === null ? 'null' : type}. Fix the match`,
      )
  }
}

const checkStatus = (status: unknown): void => {
  const list = Array.isArray(status) ? status : [status]
  for (const value of list)
    if (value !== null && !(Number.isInteger(value) && value >= 100 && value <= 599))
      fail(
        `status must be an HTTP status (100-599), null for a failed connection, or a list of them; got ${JSON.stringify(value)}. Fix the match`,
      )
}

/**
 * Checks a match once, before it is used: programmer errors fail fast with a
 * message naming the field. Returns the match.
 *
 * @example
 * checkRequestMatch({ method: 'POST', path: '/v1/pets' }, JUDGE_TOOLS)
 */
export const checkRequestMatch = (
  match: unknown,
  tools: Pick<JudgeTools, 'operationIds'>,
): RequestMatch => {
  if (match === undefined) return {}
  if (!isRecord(match))
    fail(`the match must be an object such as { method: 'POST', path: '/v1/pets' }. Fix the call`)
  const fields = match as Record<string, unknown>
  for (const name of Object.keys(fields))
    if (!FIELDS.has(name))
      fail(`"${name}" is not a field of a match; use ${[...FIELDS].join(', ')}. Fix the match`)
  const { method, path, status, operation } = fields
  if (method !== undefined) {
    const methods = Array.isArray(method) ? method : [method]
    if (
      methods.length === 0 ||
      methods.some((m) => typeof m !== 'string' || !/^[A-Za-z]+$/.test(m))
    )
      fail(`method must be a method name such as 'POST', or a list of them. Fix the match`)
  }
  if (path !== undefined && !(path instanceof RegExp) && typeof path !== 'string')
    fail(`path must be a string ('/v1/pets/:petId') or a RegExp. Fix the match`)
  if (typeof path === 'string' && !path.startsWith('/') && !/^https?:\/\//i.test(path))
    fail(`path "${path}" must start with "/" (or be a full http(s) URL). Fix the match`)
  if (deeperThan(fields.body, MAX_MATCH_BODY_DEPTH))
    fail(
      `body nests arrays and objects deeper than ${MAX_MATCH_BODY_DEPTH.toLocaleString('en-US')} levels; match a shallower part of it (the rest matches anything). Fix the match`,
    )
  checkValues('query', fields.query)
  checkValues('headers', fields.headers)
  if (status !== undefined) checkStatus(status)
  if (operation !== undefined && !tools.operationIds.includes(operation as OperationId))
    fail(
      `operation must be one of ${tools.operationIds.join(', ')}, got ${JSON.stringify(operation)}`,
    )
  return fields as RequestMatch
}

/**
 * Checks `times`: a whole number from 0, or undefined for "at least one".
 *
 * @example
 * checkTimes({ times: 1 }) // 1
 */
export const checkTimes = (options: ExpectOptions | undefined): number | undefined => {
  if (options === undefined) return undefined
  if (!isRecord(options)) fail('the options must be an object such as { times: 1 }. Fix the call')
  const { times } = options as { times?: unknown }
  if (times === undefined) return undefined
  if (typeof times !== 'number' || !Number.isSafeInteger(times) || times < 0)
    return fail(`times must be a whole number from 0, got ${JSON.stringify(times)}. Fix the call`)
  return times
}
