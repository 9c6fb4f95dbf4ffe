import type { SimpleFaker as Faker } from '@faker-js/faker'
import type { FidelitySettings } from '../contract/fidelity.js'
import { LIMITS } from '../contract/limits.js'
import { ApiError } from '../http/api-error.js'
import { invalidParameter } from '../http/errors.js'
import type { SandboxResponse } from '../http/types.js'
import { decodeCursor, encodeCursor } from '../operations/cursor.js'
import { applyDefaults } from './apply-defaults.js'
import { declaresNotFound } from './check-document-answer.js'
import { toDetails } from './check-request.js'
import {
  type CollectionShape,
  type CompiledOperation,
  isArraySchema,
  propertiesOf,
  requiredOf,
} from './compile-openapi-operations.js'
import type { SchemaCheck } from './compile-schemas.js'
import { generateFromSchema } from './generate-from-schema.js'
import type { JsonSchema } from './openapi-document.js'
import {
  type CollectionRecords,
  idFor,
  recordSchemaOf,
  recordValid,
  seedFor,
} from './openapi-records.js'

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
  /**
   * The operation's success body when its schema is not the record's (a
   * DELETE declared with `type: string`, a PUT answering `{ success: true }`):
   * generated once from that schema, answered instead of a record it refuses.
   */
  declaredBody?: string | undefined
  /** A wrapped list's other fields (`has_more`, `object`), made once from its schema; the records go in `operation.listField`. */
  wrapper?: Readonly<Record<string, unknown>> | undefined
}

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

/**
 * A record as the document describes it: only its fields when it allows no
 * others; the document's defaults for fields not given (on a create or a
 * replace, as ajv's useDefaults would); its required fields filled in (those
 * of the list's own item schema too); the id last.
 */
const shapeRecord = (
  input: CollectionInput,
  value: Record<string, unknown>,
  seq: number,
  id: number | string,
): Record<string, unknown> => {
  const { shape } = input
  const schema = recordSchemaOf(shape)
  const properties = { ...shape.properties, ...propertiesOf(schema) }
  const withDefaults = (
    input.operation.role === 'update' ? value : applyDefaults(schema, value)
  ) as Record<string, unknown>
  const given =
    shape.item.additionalProperties === false ||
    shape.listItem?.schema.additionalProperties === false
      ? Object.entries(withDefaults).filter(([k]) => Object.hasOwn(properties, k))
      : Object.entries(withDefaults)
  const present = new Set(given.map(([k]) => k))
  const required = requiredOf(schema)
  const missing = required.filter((name) => !present.has(name) && name !== shape.idField)
  const filled: [string, unknown][] = []
  if (missing.length > 0) {
    // Fields the server fills (a status, a date): drawn for this record alone, the same every time.
    input.faker.seed(seedFor(input.seed, `${shape.path}#${seq}`))
    for (const name of missing)
      filled.push([name, generateFromSchema(input.faker, own(properties, name) ?? {}, { name })])
  }
  // The id last: a given id keeps its place, its value replaced.
  let record: Record<string, unknown> = Object.fromEntries([
    ...given,
    ...filled,
    [shape.idField, id],
  ])
  let result = recordValid(shape, record)
  if (result !== true) {
    // The body was valid by the document's request schema; a field the record's schema
    // describes otherwise (another enum, another type) is the server's to fill: drawn again.
    const fields = new Set(
      result
        .map((e) =>
          e.instancePath === '' && e.keyword === 'required'
            ? String(e.params.missingProperty)
            : (e.instancePath.split('/')[1] ?? '').replaceAll('~1', '/').replaceAll('~0', '~'),
        )
        .filter((name) => name !== '' && name !== shape.idField && Object.hasOwn(properties, name)),
    )
    if (fields.size > 0) {
      input.faker.seed(seedFor(input.seed, `${shape.path}#${seq}#repair`))
      const repaired = {
        ...record,
        ...Object.fromEntries(
          [...fields].map((name) => [
            name,
            generateFromSchema(input.faker, own(properties, name) ?? {}, {
              name,
              examples: false,
            }),
          ]),
        ),
      }
      const second = recordValid(shape, repaired)
      if (second === true) record = repaired
      result = second
    }
  }
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

/** The operation's answer with a record, or without a body when the document's success has none; always the document's status. */
const withRecord = (
  input: CollectionInput,
  record: Record<string, unknown> | undefined,
  headers: Record<string, string> = {},
): SandboxResponse => {
  const { status, schema, check, contentType } = input.operation.success
  if (schema === undefined || record === undefined) return { status, headers, body: null }
  // The record is the answer when the schema is the record's, or takes it and names its id
  // (a loose `{ data: {...} }` schema without `required` takes any object: it wraps instead).
  const fits =
    schema === input.shape.item ||
    check === undefined ||
    (check(record) === true && Object.hasOwn(propertiesOf(schema), input.shape.idField))
  return {
    status,
    headers: { 'Content-Type': contentType ?? 'application/json', ...headers },
    body:
      fits || input.declaredBody === undefined || check === undefined
        ? JSON.stringify(record)
        : withDeclared(input.declaredBody, schema, check, record),
  }
}

/**
 * An unknown id where the document declares no 404 (decision 0059): the
 * answer a stateless mock gives, valid by the document: a record generated
 * for that id (seeded by it), the body of a replace or a patch laid over it;
 * nothing is stored.
 */
const statelessRecord = (input: CollectionInput, key: string): SandboxResponse => {
  const { shape, operation } = input
  const id = shape.idType === 'integer' && /^-?[0-9]+$/.test(key) ? Number(key) : key
  input.faker.seed(seedFor(input.seed, `${shape.path}#unknown#${key}`))
  const drawn = generateFromSchema(input.faker, recordSchemaOf(shape), { examples: false })
  const base = (
    typeof drawn === 'object' && drawn !== null && !Array.isArray(drawn) ? drawn : {}
  ) as Record<string, unknown>
  const next =
    operation.role === 'replace'
      ? (input.body ?? {})
      : operation.role === 'update'
        ? (mergePatch(base, input.body ?? {}) as Record<string, unknown>)
        : base
  try {
    const record = shapeRecord(input, next, 0, id)
    return withRecord(
      input,
      operation.role === 'delete' && operation.success.schema === undefined ? undefined : record,
    )
  } catch (error) {
    // The id does not fit the record (its schema is stricter than the path's): the one honest answer left.
    if (error instanceof ApiError) throw notFound(shape, key)
    throw error
  }
}

/**
 * The operation's own success body with the record in it, as far as its
 * schema takes it: the record in the property that wraps one (`{ data:
 * record }`), else each field of the record the schema has,
 * each kept only while the body stays valid.
 */
const withDeclared = (
  declared: string,
  schema: JsonSchema,
  check: SchemaCheck,
  record: Record<string, unknown>,
): string => {
  // An array of records (Netlify's members and accounts): the record in an array of one.
  if (isArraySchema(schema) && check([record]) === true) return JSON.stringify([record])
  const base: unknown = JSON.parse(declared)
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return declared
  const properties = propertiesOf(schema)
  // Beside the record, only what the schema requires: optional fields drawn once per operation
  // (`errors`, `includes`) would make the create's answer and the fetch's differ (Twitter).
  const required = new Set(requiredOf(schema))
  const bare = Object.fromEntries(Object.entries(base).filter(([name]) => required.has(name)))
  for (const name of Object.keys(properties)) {
    for (const around of [bare, base]) {
      const wrapped = { ...around, [name]: record }
      if (check(wrapped) === true) return JSON.stringify(wrapped)
    }
  }
  // No property wraps it: the record itself when the schema takes it, else its fields overlaid.
  if (check(record) === true) return JSON.stringify(record)
  let out: Record<string, unknown> = { ...base }
  for (const [name, value] of Object.entries(record)) {
    if (!Object.hasOwn(properties, name)) continue
    const tried = { ...out, [name]: value }
    if (check(tried) === true) out = tried
  }
  return JSON.stringify(out)
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

/**
 * A record as the list shows it: where the list's own item schema declares
 * its properties and differs from the record's (Airflow lists connections
 * without their `password`), only those, the id kept; else the record whole.
 */
const asListed = (
  shape: CollectionShape,
  record: Record<string, unknown>,
): Record<string, unknown> => {
  const listItem = shape.listItem?.schema
  if (listItem === undefined) return record
  const declared = propertiesOf(listItem)
  if (Object.keys(declared).length === 0) return record
  return Object.fromEntries(
    Object.entries(record).filter(
      ([name]) => Object.hasOwn(declared, name) || name === shape.idField,
    ),
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
  // Equality filters: a query parameter the document declares that names a field of the record
  // (never a path parameter: `/repos/{owner}/{repo}/tasks` lists tasks whose `owner` is an object).
  const query = new Set(
    input.operation.parameters.filter((p) => p.in === 'query').map((p) => p.name),
  )
  const filters = Object.entries(input.values).filter(
    ([name]) => query.has(name) && !PAGING.has(name) && Object.hasOwn(shape.properties, name),
  )
  const matching = [...input.records.byId.values()].filter((r) =>
    filters.every(([name, value]) => JSON.stringify(own(r.value, name)) === JSON.stringify(value)),
  )
  const rest = matching.filter((r) => r.seq > after)
  const page = fidelity.pagination === 'none' ? matching.slice(0, limit) : rest.slice(0, limit)
  const headers: Record<string, string> = {
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
  const records = page.map((r) => asListed(shape, r.value))
  const field = input.operation.listField
  return {
    status: input.operation.success.status,
    headers: {
      ...headers,
      'Content-Type': input.operation.success.contentType ?? 'application/json',
    },
    body: JSON.stringify(field === undefined ? records : { ...input.wrapper, [field]: records }),
  }
}

/**
 * The input with the record's fields as its body: where the answers wrap the record
 * (`{ data: record }`) and the request body's schema wraps it in the same property (Asana's
 * `{ data: { name, ... } }`), the fields inside it; else the body as sent.
 */
const withRecordBody = (input: CollectionInput): CollectionInput => {
  const key = input.shape.wrappedIn
  const schema = input.operation.body?.schema
  if (key === undefined || schema === undefined || input.body === undefined) return input
  if (!Object.hasOwn(propertiesOf(schema), key)) return input
  const inner = own(input.body, key)
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner)
    ? { ...input, body: inner as Record<string, unknown> }
    : input
}

/**
 * A stateful collection's operation on its records (list, create, fetch,
 * replace, update, delete), or 404 `not_found` for an unknown id.
 *
 * @example
 * const response = answerCollection(input)
 */
export const answerCollection = (given: CollectionInput): SandboxResponse => {
  const input = withRecordBody(given)
  const { operation, records, shape } = input
  switch (operation.role) {
    case 'list':
      return list(input)
    case 'create': {
      let seq = records.nextSeq
      let id = idFor(shape, seq, input)
      // A drawn id another record has (a narrow pattern): the next place's.
      for (let i = 0; records.byId.get(String(id)) !== undefined && i < 16; i += 1) {
        seq += 1
        id = idFor(shape, seq, input)
      }
      if (seq > LIMITS.maxId || records.byId.get(String(id)) !== undefined)
        throw new ApiError(
          'id_space_exhausted',
          `No id below 2^53 is left in ${shape.path}; reset the sandbox.`,
        )
      const record = shapeRecord(input, input.body ?? {}, seq, id)
      records.byId.set(String(id), { seq, value: record })
      records.nextSeq = seq + 1
      return withRecord(input, record, {
        Location: `${input.base}${shape.path}/${encodeURIComponent(String(id))}`,
      })
    }
    default: {
      const { key, stored } = recordOf(input)
      if (stored === undefined) {
        if (declaresNotFound(operation)) throw notFound(shape, key)
        return statelessRecord(input, key)
      }
      if (operation.role === 'fetch') return withRecord(input, stored.value)
      if (operation.role === 'delete') {
        records.byId.delete(key)
        return withRecord(input, operation.success.schema === undefined ? undefined : stored.value)
      }
      const next =
        operation.role === 'replace'
          ? (input.body ?? {})
          : (mergePatch(stored.value, input.body ?? {}) as Record<string, unknown>)
      const record = shapeRecord(
        input,
        next,
        stored.seq,
        (Object.hasOwn(stored.value, shape.idField) ? stored.value[shape.idField] : undefined) as
          | string
          | number,
      )
      // A new record, not a change in place: the seeded ones are shared by every session.
      records.byId.set(key, { seq: stored.seq, value: record })
      return withRecord(input, record)
    }
  }
}
