import type { ErrorObject } from 'ajv'
import type { ErrorDetail } from '../contract/error-body.js'
import { ApiError } from '../http/api-error.js'
import { readJson } from '../http/read-json.js'
import type { SandboxRequest } from '../http/types.js'
import type { CompiledOperation, CompiledParameter } from './compile-openapi-operations.js'
import type { JsonSchema } from './openapi-document.js'

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

/** ajv's problems in the project's words: one detail per field, `field` as createPet names it. */
export const toDetails = (errors: readonly ErrorObject[], prefix = ''): ErrorDetail[] => {
  const details: ErrorDetail[] = []
  for (const error of errors) {
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
      message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
    // Branches of oneOf/anyOf are summed up by their own keyword's message.
    if (error.keyword === 'if') continue
    const field = [prefix, ...path].filter((p) => p !== '').join('.') || '(body)'
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
  const values = input.query.getAll(name)
  if (values.length === 0) return { given: false }
  if (typeOf(schema) === 'array') {
    const items =
      typeof schema.items === 'object' && schema.items !== null ? (schema.items as JsonSchema) : {}
    const texts = values.length === 1 ? (values[0] ?? '').split(',') : values
    return { given: true, value: texts.map((t) => coerce(t, items)) }
  }
  if (values.length > 1)
    throw new ApiError(
      'invalid_parameter',
      `The query parameter "${name}" is repeated; send it once.`,
      {
        details: [{ field: name, message: 'must be given at most once' }],
      },
    )
  return { given: true, value: coerce(values[0] ?? '', schema) }
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

// readJson's checks (size, Content-Type, UTF-8 JSON, an object) with the document's schema after.
const ANY_OBJECT = {
  safeParse: (value: unknown) => ({
    success: true as const,
    data: value as Record<string, unknown>,
  }),
}

/**
 * The JSON request body, checked as createPet checks its own: 413, 400
 * `invalid_content_type`, `malformed_json`, then `validation_failed` with a
 * detail per field that breaks the document's schema. Undefined for an
 * operation without a JSON body, or an empty optional one.
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
  if (body === undefined) return undefined
  if (!body.required && (request.body === null || request.body.byteLength === 0)) return undefined
  const value = readJson(request, ANY_OBJECT, { maxBodyBytes: options.maxBodyBytes })
  const result = body.check(value)
  if (result === true) return value
  const details = toDetails(result)
  throw new ApiError(
    'validation_failed',
    `The request body is invalid: ${details.map((d) => (d.field === '(body)' ? d.message : `${d.field} ${d.message}`)).join('; ')}.`,
    { details },
  )
}
