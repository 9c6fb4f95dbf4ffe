import type { ErrorObject } from 'ajv'
import type { ErrorDetail } from '../contract/error-body.js'
import { ApiError } from '../http/api-error.js'
import { payloadTooLarge } from '../http/errors.js'
import { readJson } from '../http/read-json.js'
import type { SandboxRequest } from '../http/types.js'
import type { CompiledOperation, CompiledParameter } from './compile-openapi-operations.js'
import type { JsonSchema } from './openapi-document.js'

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization'])
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/

const typeOf = (schema: JsonSchema): unknown =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type

/** A parameter's text as the value its schema describes (left as text when it is not one). */
const coerce = (text: string, schema: JsonSchema): unknown => {
  const type = typeOf(schema)
  if ((type === 'integer' || type === 'number') && NUMBER.test(text)) return Number(text)
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

/**
 * The most details a 400 names, and the most allowed values one detail
 * lists: a body of 64 KiB against an `enum` of 1,000 values must not make
 * an answer of hundreds of megabytes (decision 0059, SECURITY.md).
 */
export const DETAIL_LIMITS = { maxDetails: 20, maxListedValues: 10, maxMessageChars: 300 } as const

const shorten = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`

/** An enum's allowed values in a few words: the first ten, then how many more. */
const allowedList = (values: readonly unknown[]): string => {
  const shown = values
    .slice(0, DETAIL_LIMITS.maxListedValues)
    .map((v) => shorten(JSON.stringify(v) ?? String(v), 40))
  const more = values.length - shown.length
  return `${shown.join(', ')}${more > 0 ? ` (and ${more} more)` : ''}`
}

/**
 * ajv's problems in the project's words: one detail per field, `field` as
 * createPet names it; at most DETAIL_LIMITS.maxDetails of them, each message
 * at most maxMessageChars characters.
 */
export const toDetails = (errors: readonly ErrorObject[], prefix = ''): ErrorDetail[] => {
  const details: ErrorDetail[] = []
  for (const error of errors) {
    if (details.length >= DETAIL_LIMITS.maxDetails) break
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    let message = error.message ?? 'is invalid'
    const params = error.params as Record<string, unknown>
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      path.push(params.missingProperty)
      message = 'is required'
    } else if (
      error.keyword === 'additionalProperties' &&
      typeof params.additionalProperty === 'string'
    ) {
      path.push(params.additionalProperty)
      message = 'is not an allowed field'
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
      message = `must be one of ${allowedList(params.allowedValues)}`
    // Branches of oneOf/anyOf are summed up by their own keyword's message.
    if (error.keyword === 'if') continue
    const field = shorten(
      [prefix, ...path].filter((p) => p !== '').join('.') || '(body)',
      DETAIL_LIMITS.maxMessageChars,
    )
    message = shorten(message, DETAIL_LIMITS.maxMessageChars)
    if (!details.some((d) => d.field === field && d.message === message))
      details.push({ field, message })
  }
  return details
}

const readValue = (
  parameter: CompiledParameter,
  input: {
    query: URLSearchParams
    params: Readonly<Record<string, string>>
    request: SandboxRequest
  },
): { given: false } | { given: true; value: unknown } => {
  const { name, schema } = parameter
  if (parameter.in === 'path') {
    const raw = Object.hasOwn(input.params, name) ? input.params[name] : undefined
    if (raw === undefined) return { given: false }
    let text: string
    try {
      text = decodeURIComponent(raw)
    } catch {
      throw new ApiError(
        'invalid_parameter',
        `The parameter "${name}" is not valid percent-encoding.`,
        {
          details: [{ field: name, message: 'is not valid percent-encoding' }],
        },
      )
    }
    return { given: true, value: coerce(text, schema) }
  }
  if (parameter.in === 'header') {
    const key = name.toLowerCase()
    const { headers } = input.request
    const text = Object.hasOwn(headers, key) ? headers[key] : undefined
    return text === undefined ? { given: false } : { given: true, value: coerce(text, schema) }
  }
  const type = typeOf(schema)
  if (parameter.json) return readJsonQuery(parameter, input.query)
  if (type === 'object' && (parameter.style === 'deepObject' || parameter.explode))
    return readObjectQuery(parameter, input.query)
  const values = input.query.getAll(name)
  if (values.length === 0) return { given: false }
  if (type === 'array') {
    const items =
      typeof schema.items === 'object' && schema.items !== null ? (schema.items as JsonSchema) : {}
    const texts =
      values.length === 1 ? (values[0] ?? '').split(DELIMITERS[parameter.style]) : values
    return { given: true, value: texts.map((t) => coerce(t, items)) }
  }
  const single = onlyValue(name, values)
  if (type === 'object') {
    // form, explode false: `name=key,value,key,value`.
    const parts = single.split(',')
    const value: Record<string, unknown> = {}
    for (let i = 0; i + 1 < parts.length; i += 2)
      defineField(
        value,
        parts[i] ?? '',
        coerce(parts[i + 1] ?? '', propertySchema(schema, parts[i] ?? '')),
      )
    return { given: true, value }
  }
  return { given: true, value: coerce(single, schema) }
}

// A query array's separator by its style (`form` with explode false writes `a,b`).
const DELIMITERS: Readonly<Record<CompiledParameter['style'], string>> = {
  form: ',',
  deepObject: ',',
  spaceDelimited: ' ',
  pipeDelimited: '|',
}

const onlyValue = (name: string, values: readonly string[]): string => {
  if (values.length > 1)
    throw new ApiError(
      'invalid_parameter',
      `The query parameter "${name}" is repeated; send it once.`,
      {
        details: [{ field: name, message: 'must be given at most once' }],
      },
    )
  return values[0] ?? ''
}

const propertySchema = (schema: JsonSchema, key: string): JsonSchema => {
  const properties = schema.properties
  if (typeof properties !== 'object' || properties === null) return {}
  const declared = properties as Record<string, unknown>
  const found = Object.hasOwn(declared, key) ? declared[key] : undefined
  return typeof found === 'object' && found !== null ? (found as JsonSchema) : {}
}

// A field named by the client (`__proto__` too) as a plain own property.
const defineField = (target: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}

/**
 * An object in the query: `deepObject` (`scope[type]=account`) or `form` with
 * explode (each property its own pair: `type=account`). Not given when no
 * property is.
 */
const readObjectQuery = (
  parameter: CompiledParameter,
  query: URLSearchParams,
): { given: false } | { given: true; value: unknown } => {
  const value: Record<string, unknown> = {}
  let given = false
  if (parameter.style === 'deepObject') {
    const prefix = `${parameter.name}[`
    for (const key of new Set(query.keys())) {
      if (!key.startsWith(prefix) || !key.endsWith(']')) continue
      const field = key.slice(prefix.length, -1)
      defineField(value, field, readField(parameter, key, field, query))
      given = true
    }
    return given ? { given: true, value } : { given: false }
  }
  const properties = parameter.schema.properties
  if (typeof properties !== 'object' || properties === null) return { given: false }
  for (const field of Object.keys(properties)) {
    if (!query.has(field)) continue
    defineField(value, field, readField(parameter, field, field, query))
    given = true
  }
  return given ? { given: true, value } : { given: false }
}

const readField = (
  parameter: CompiledParameter,
  key: string,
  field: string,
  query: URLSearchParams,
): unknown => {
  const schema = propertySchema(parameter.schema, field)
  const values = query.getAll(key)
  if (typeOf(schema) === 'array') {
    const items =
      typeof schema.items === 'object' && schema.items !== null ? (schema.items as JsonSchema) : {}
    return values.map((t) => coerce(t, items))
  }
  return coerce(onlyValue(key, values), schema)
}

/** A parameter given as `content: application/json`: its value is JSON text. */
const readJsonQuery = (
  parameter: CompiledParameter,
  query: URLSearchParams,
): { given: false } | { given: true; value: unknown } => {
  const values = query.getAll(parameter.name)
  if (values.length === 0) return { given: false }
  const text = onlyValue(parameter.name, values)
  try {
    return { given: true, value: JSON.parse(text) as unknown }
  } catch {
    throw new ApiError(
      'invalid_parameter',
      `The query parameter "${parameter.name}" is not JSON; the document gives it as application/json.`,
      { details: [{ field: parameter.name, message: 'must be JSON text' }] },
    )
  }
}

/**
 * The operation's parameters, read and checked against their schemas: 400
 * `invalid_parameter` naming every bad one. Answers the values, typed.
 *
 * @example
 * const values = checkParameters(operation, { query: url.searchParams, params, request })
 */
export const checkParameters = (
  operation: CompiledOperation,
  input: {
    query: URLSearchParams
    params: Readonly<Record<string, string>>
    request: SandboxRequest
  },
): Record<string, unknown> => {
  const values: [string, unknown][] = []
  const details: ErrorDetail[] = []
  for (const parameter of operation.parameters) {
    // OpenAPI: a header parameter named Accept, Content-Type or Authorization is ignored.
    if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue
    const read = readValue(parameter, input)
    if (!read.given) {
      if (parameter.required) details.push({ field: parameter.name, message: 'is required' })
      continue
    }
    const result = parameter.check(read.value)
    if (result === true) values.push([parameter.name, read.value])
    else
      for (const d of toDetails(result)) details.push({ field: parameter.name, message: d.message })
  }
  if (details.length > DETAIL_LIMITS.maxDetails) details.length = DETAIL_LIMITS.maxDetails
  if (details.length > 0) {
    const names = [...new Set(details.map((d) => `"${d.field}"`))].join(', ')
    throw new ApiError(
      'invalid_parameter',
      `The parameter${details.length > 1 ? 's' : ''} ${names} ${details.length > 1 ? 'are' : 'is'} invalid: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
      { details },
    )
  }
  return Object.fromEntries(values)
}

// readJson's checks (size, Content-Type, UTF-8 JSON) with the document's schema after.
const ANY_VALUE = {
  safeParse: (value: unknown) => ({ success: true as const, data: value }),
}

const COLLECTION_WRITES = new Set(['create', 'replace', 'update'])

/** Whether a request's Content-Type is one of the declared types, or within a declared range (`image/*`, `*\/*`). */
const declaresType = (types: readonly string[], header: string | undefined): boolean => {
  const sent = header?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (sent === '') return types.includes('*/*') || types.includes('application/octet-stream')
  return types.some(
    (t) => t === sent || t === '*/*' || (t.endsWith('/*') && sent.startsWith(t.slice(0, -1))),
  )
}

/**
 * The JSON request body, checked as createPet checks its own: 413, 400
 * `invalid_content_type`, `malformed_json`, then `validation_failed` with a
 * detail per field that breaks the document's schema. Any JSON value the
 * schema allows passes (a batch as an array, a JSON Patch); a collection's
 * create, replace or update reads an object's fields (any other value gives
 * none). Answers the body
 * of a collection's write; undefined otherwise, or for an empty optional one.
 *
 * @example
 * const body = checkBody(operation, request, { maxBodyBytes: 65_536 })
 */
export const checkBody = (
  operation: CompiledOperation,
  request: SandboxRequest,
  options: { maxBodyBytes: number },
): Record<string, unknown> | undefined => {
  const body = operation.body
  const others = operation.otherBodies
  const empty = request.body === null || request.body.byteLength === 0
  // A body of a declared media type that is not JSON (an upload: `multipart/form-data`,
  // `application/octet-stream`): taken as it is, within the size limit (decision 0067).
  if (
    others !== undefined &&
    !empty &&
    declaresType(others.types, request.headers['content-type'])
  ) {
    if ((request.body?.byteLength ?? 0) > options.maxBodyBytes)
      throw payloadTooLarge(options.maxBodyBytes)
    return undefined
  }
  if (body === undefined) {
    if (others?.required === true && empty)
      throw new ApiError('validation_failed', 'The request body is required.', {
        details: [{ field: '(body)', message: 'is required' }],
      })
    return undefined
  }
  if (!body.required && empty) return undefined
  const value = readJson(request, ANY_VALUE, { maxBodyBytes: options.maxBodyBytes, anyJson: true })
  const result = body.check(value)
  if (result === true) {
    if (!COLLECTION_WRITES.has(operation.role)) return undefined
    // A body the document allows that is not an object gives the record no fields of its own.
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  }
  const details = toDetails(result)
  const cut =
    details.length === DETAIL_LIMITS.maxDetails ? ` (the first ${details.length} problems)` : ''
  throw new ApiError(
    'validation_failed',
    `The request body is invalid${cut}: ${details.map((d) => (d.field === '(body)' ? d.message : `${d.field} ${d.message}`)).join('; ')}.`,
    { details },
  )
}
