import type { SimpleFaker as Faker } from '@faker-js/faker'
import type { FidelitySettings } from '../contract/fidelity.js'
import { LIMITS } from '../contract/limits.js'
import { ApiError } from '../http/api-error.js'
import { invalidParameter } from '../http/errors.js'
import type { SandboxResponse } from '../http/types.js'
import { decodeCursor, encodeCursor } from '../operations/cursor.js'
import { toDetails } from './check-request.js'
import {
  type CollectionShape,
  type CompiledOperation,
  requiredOf,
} from './compile-openapi-operations.js'
import { generateFromSchema } from './generate-from-schema.js'
import { type CollectionRecords, idFor, seedFor } from './openapi-records.js'

/** What a collection's operation needs besides its records. */
export interface CollectionInput {
  operation: CompiledOperation
  shape: CollectionShape
  records: CollectionRecords
  /** The checked parameters, typed. */
  values: Record<string, unknown>
  body: Record<string, unknown> | undefined
  query: URLSearchParams
  /** `origin + basePath`, for Link and Location. */
  base: string
  fidelity: Readonly<FidelitySettings>
  faker: Faker
  seed: number
}

const JSON_HEADERS = { 'Content-Type': 'application/json' } as const
const PAGING = new Set(['limit', 'cursor', 'offset'])

/** An own entry of a record: a key such as `__proto__` or `constructor` does not reach its prototype. */
const own = <T>(object: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(object, key) ? object[key] : undefined

const notFound = (shape: CollectionShape, id: string): ApiError =>
  new ApiError('not_found', `No record of ${shape.path} has the id "${id}".`)

const recordOf = (
  input: CollectionInput,
): { key: string; stored: ReturnType<CollectionRecords['byId']['get']> } => {
  const key = String(own(input.values, input.shape.idParam))
  return { key, stored: input.records.byId.get(key) }
}

/** A record as the document describes it: only its fields when it allows no others; its required fields filled in. */
const shapeRecord = (
  input: CollectionInput,
  value: Record<string, unknown>,
  seq: number,
): Record<string, unknown> => {
  const { shape } = input
  const { properties } = shape
  const given =
    shape.item.additionalProperties === false
      ? Object.entries(value).filter(([k]) => Object.hasOwn(properties, k))
      : Object.entries(value)
  const present = new Set(given.map(([k]) => k))
  const required = requiredOf(shape.item)
  const missing = required.filter((name) => !present.has(name) && name !== shape.idField)
  const filled: [string, unknown][] = []
  if (missing.length > 0) {
    // Fields the server fills (a status, a date): drawn for this record alone, the same every time.
    input.faker.seed(seedFor(input.seed, `${shape.path}#${seq}`))
    for (const name of missing)
      filled.push([name, generateFromSchema(input.faker, own(properties, name) ?? {}, name)])
  }
  // The id last: a given id keeps its place, its value replaced.
  const record: Record<string, unknown> = Object.fromEntries([
    ...given,
    ...filled,
    [shape.idField, idFor(shape, seq)],
  ])
  const result = shape.check(record)
  if (result !== true) {
    const details = toDetails(result)
    throw new ApiError(
      'validation_failed',
      `The record would not be valid: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
      { details },
    )
  }
  return record
}

/** The operation's answer with a record (or none: 204 for a success without a body). */
const withRecord = (
  input: CollectionInput,
  record: Record<string, unknown> | undefined,
  headers: Record<string, string> = {},
): SandboxResponse => {
  const { status, schema } = input.operation.success
  if (schema === undefined || record === undefined)
    return { status: status === 200 ? 204 : status, headers, body: null }
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(record) }
}

/** merge-patch (RFC 7396): objects merged member by member, null removes. */
const mergePatch = (target: unknown, patch: unknown): unknown => {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch
  const out = new Map<string, unknown>(
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? Object.entries(target)
      : [],
  )
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) out.delete(key)
    else out.set(key, mergePatch(out.get(key), value))
  }
  return Object.fromEntries(out)
}

const readLimit = (input: CollectionInput): number => {
  const text = input.query.get('limit')
  if (text === null) return LIMITS.listLimitDefault
  const limit = Number(text)
  if (/^[1-9][0-9]{0,2}$/.test(text) && limit <= LIMITS.listLimitMax) return limit
  if (input.fidelity.limitOutOfRange === 'clamp')
    return /^-?[0-9]+$/.test(text)
      ? Math.min(Math.max(limit, 1), LIMITS.listLimitMax)
      : LIMITS.listLimitDefault
  throw invalidParameter(
    'limit',
    `must be an integer from ${LIMITS.listLimitMin} to ${LIMITS.listLimitMax}`,
  )
}

const list = (input: CollectionInput): SandboxResponse => {
  const { fidelity, shape } = input
  const limit = readLimit(input)
  let after = 0
  const cursor = input.query.get('cursor')
  if (fidelity.pagination === 'cursor' && cursor !== null) {
    const decoded = decodeCursor(cursor)
    if (decoded === undefined)
      throw invalidParameter('cursor', 'must be a cursor from a previous page’s next link')
    after = decoded
  }
  // Equality filters: a query parameter the document declares that names a field of the record.
  const filters = Object.entries(input.values).filter(
    ([name]) => !PAGING.has(name) && Object.hasOwn(shape.properties, name),
  )
  const matching = [...input.records.byId.values()].filter((r) =>
    filters.every(([name, value]) => JSON.stringify(own(r.value, name)) === JSON.stringify(value)),
  )
  const rest = matching.filter((r) => r.seq > after)
  const page = fidelity.pagination === 'none' ? matching.slice(0, limit) : rest.slice(0, limit)
  const headers: Record<string, string> = {
    ...JSON_HEADERS,
    ...(fidelity.totalCountHeader === false
      ? {}
      : { [fidelity.totalCountHeader]: String(matching.length) }),
  }
  const last = page[page.length - 1]
  if (fidelity.pagination === 'cursor' && last !== undefined && rest.length > page.length) {
    const params = new URLSearchParams(filters.map(([name]) => [name, input.query.get(name) ?? '']))
    params.set('limit', String(limit))
    params.set('cursor', encodeCursor(last.seq))
    headers.Link = `<${input.base}${shape.path}?${params}>; rel="next"`
  }
  return {
    status: input.operation.success.status,
    headers,
    body: JSON.stringify(page.map((r) => r.value)),
  }
}

/**
 * A stateful collection's operation on its records (list, create, fetch,
 * replace, update, delete), or 404 `not_found` for an unknown id.
 *
 * @example
 * const response = answerCollection(input)
 */
export const answerCollection = (input: CollectionInput): SandboxResponse => {
  const { operation, records, shape } = input
  switch (operation.role) {
    case 'list':
      return list(input)
    case 'create': {
      const seq = records.nextSeq
      if (seq > LIMITS.maxId)
        throw new ApiError(
          'id_space_exhausted',
          `No id below 2^53 is left in ${shape.path}; reset the sandbox.`,
        )
      const record = shapeRecord(input, input.body ?? {}, seq)
      const id = String(own(record, shape.idField))
      records.byId.set(id, { seq, value: record })
      records.nextSeq = seq + 1
      return withRecord(input, record, {
        Location: `${input.base}${shape.path}/${encodeURIComponent(id)}`,
      })
    }
    default: {
      const { key, stored } = recordOf(input)
      if (stored === undefined) throw notFound(shape, key)
      if (operation.role === 'fetch') return withRecord(input, stored.value)
      if (operation.role === 'delete') {
        records.byId.delete(key)
        return withRecord(input, operation.success.schema === undefined ? undefined : stored.value)
      }
      const next =
        operation.role === 'replace'
          ? (input.body ?? {})
          : (mergePatch(stored.value, input.body ?? {}) as Record<string, unknown>)
      const record = shapeRecord(input, next, stored.seq)
      // A new record, not a change in place: the seeded ones are shared by every session.
      records.byId.set(key, { seq: stored.seq, value: record })
      return withRecord(input, record)
    }
  }
}
