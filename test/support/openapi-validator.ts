import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import document from '../../openapi/petstore-sandbox.openapi.json' with { type: 'json' }
import type { WireRequest, WireResponse } from '../conformance/parts/target.js'

// The document as ajv knows it: `$ref`s inside it resolve against this id.
const DOCUMENT_ID = 'urn:petstore-sandbox:openapi'
const DOCUMENT: unknown = document
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
const CONTROL_PREFIX = '/__sandbox'
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']

type JsonObject = Record<string, unknown>
/** A node of the document and its JSON pointer (the pointer ajv compiles). */
interface Located {
  node: JsonObject
  pointer: string
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const escapePointer = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1')
const unescapePointer = (part: string): string => part.replaceAll('~1', '/').replaceAll('~0', '~')

/** The object at `pointer`, following `$ref`s (local ones: the document is a single file). */
const locate = (pointer: string, depth = 0): Located | undefined => {
  let node: unknown = DOCUMENT
  for (const part of pointer.split('/').slice(1)) {
    node = isObject(node) ? node[unescapePointer(part)] : undefined
  }
  if (!isObject(node)) return undefined
  const ref = node.$ref
  if (typeof ref === 'string' && ref.startsWith('#/') && depth < 10) {
    return locate(ref.slice(1), depth + 1)
  }
  return { node, pointer }
}

const child = (parent: Located, ...keys: string[]): Located | undefined =>
  locate(`${parent.pointer}/${keys.map(escapePointer).join('/')}`)

let ajv: Ajv2020 | undefined
const validators = new Map<string, ValidateFunction>()

/** The compiled validator of the schema at `pointer`, compiled once. */
const validatorAt = (pointer: string): ValidateFunction => {
  let validate = validators.get(pointer)
  if (validate === undefined) {
    if (ajv === undefined) {
      ajv = new Ajv2020({ allErrors: true, strict: true })
      // ajv-formats is CommonJS: under NodeNext its default import is `module.exports`.
      addFormats.default(ajv)
      // The document is not a schema, but its schemas are: add it whole so
      // their `#/components/...` references resolve, with its top-level fields
      // (`openapi`, `paths`, …) as annotations, so that strict mode still checks the schemas.
      const root = isObject(DOCUMENT) ? DOCUMENT : {}
      ajv.addVocabulary(Object.keys(root))
      ajv.addSchema({ ...root, $id: DOCUMENT_ID })
    }
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` })
    validators.set(pointer, validate)
  }
  return validate
}

const schemaProblems = (pointer: string, value: unknown, label: string): string[] => {
  const validate = validatorAt(pointer)
  if (validate(value)) return []
  return (validate.errors ?? []).map((error) => {
    const params: JsonObject = error.params
    const { allowedValues, allowedValue, additionalProperty } = params
    const detail = Array.isArray(allowedValues)
      ? `: ${allowedValues.map(String).join(', ')}`
      : allowedValue !== undefined
        ? `: ${JSON.stringify(allowedValue)}`
        : typeof additionalProperty === 'string'
          ? `: ${additionalProperty}`
          : ''
    return `${label}${error.instancePath} ${error.message ?? 'is invalid'}${detail}`
  })
}

const templateRegExp = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  )

let templates: { template: string; pattern: RegExp }[] | undefined

/** The path item whose template matches the path, or undefined. */
const findPathItem = (path: string): Located | undefined => {
  if (templates === undefined) {
    const paths = isObject(DOCUMENT) && isObject(DOCUMENT.paths) ? DOCUMENT.paths : {}
    templates = Object.keys(paths).map((template) => ({
      template,
      pattern: templateRegExp(template),
    }))
  }
  const found = templates.find(({ pattern }) => pattern.test(path))
  return found === undefined ? undefined : locate(`/paths/${escapePointer(found.template)}`)
}

/** The declared response for `status`: exact, then `4XX`-style ranges, then `default`. */
const findResponse = (operation: Located, status: number): Located | undefined => {
  const responses = child(operation, 'responses')
  if (responses === undefined) return undefined
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    if (key in responses.node) return child(responses, key)
  }
  return undefined
}

/** Problems of one header: present when required, its value valid. */
const headerProblems = (name: string, header: Located, response: WireResponse): string[] => {
  const value = response.headers[name.toLowerCase()]
  if (value === undefined) {
    return header.node.required === true ? [`header ${name} is required but missing`] : []
  }
  const schema = child(header, 'schema')
  if (schema === undefined) return []
  // Header values are text: a number schema reads decimal digits.
  const numeric = schema.node.type === 'integer' || schema.node.type === 'number'
  const parsed = numeric && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(value) ? Number(value) : value
  return schemaProblems(schema.pointer, parsed, `header ${name} (${value})`)
}

/** Problems of the body: the declared media type, JSON that matches the schema, or no body. */
const bodyProblems = (definition: Located, request: WireRequest, response: WireResponse) => {
  const content = child(definition, 'content')
  if (content === undefined || Object.keys(content.node).length === 0) {
    return response.body === '' ? [] : ['the response has a body but declares no content']
  }
  if (request.method.toUpperCase() === 'HEAD') return []
  const mediaType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  const declared = Object.keys(content.node)
  if (mediaType === undefined || !declared.includes(mediaType)) {
    return [`content type "${mediaType ?? ''}" is not declared (${declared.join(', ')})`]
  }
  const schema = child(content, mediaType, 'schema')
  if (schema === undefined) return []
  if (!/^application\/([a-z.+-]+\+)?json$/.test(mediaType)) {
    return schemaProblems(schema.pointer, response.body, 'body')
  }
  let value: unknown
  try {
    value = JSON.parse(response.body)
  } catch {
    return [`the body is not JSON: ${JSON.stringify(response.body.slice(0, 80))}`]
  }
  return schemaProblems(schema.pointer, value, 'body')
}

/** Problems of a response against its declaration: every declared header, then the body. */
const responseProblems = (
  definition: Located,
  request: WireRequest,
  response: WireResponse,
): string[] => {
  const headers = child(definition, 'headers')
  const headerList = Object.keys(headers?.node ?? {}).flatMap((name) => {
    const header = headers === undefined ? undefined : child(headers, name)
    return header === undefined ? [] : headerProblems(name, header, response)
  })
  return [...headerList, ...bodyProblems(definition, request, response)]
}

/** Every response below /v1 carries the rate-limit headers, also outside the declared operations. */
const rateLimitProblems = (path: string, response: WireResponse): string[] => {
  if (path.startsWith(CONTROL_PREFIX)) return []
  return RATE_LIMIT_HEADERS.flatMap((name) => {
    const header = locate(`/components/headers/${name}`)
    return header === undefined
      ? [`the document has no components.headers.${name}`]
      : headerProblems(name, header, response)
  })
}

/**
 * A response to a path or method the document does not declare (404
 * `route_not_found`, 405, or an error that comes before routing: 400
 * `unknown_scenario`, 401, 429): an Error body whose `status` is the HTTP
 * status (a 404's is `RouteNotFoundError`), the rate-limit headers below /v1,
 * `Allow` on a 405.
 */
const undeclaredProblems = (path: string, response: WireResponse, method = 'GET'): string[] => {
  const problems = rateLimitProblems(path, response)
  if (response.status === 405 && response.headers.allow === undefined) {
    problems.push('header Allow is required on a 405 but missing')
  }
  if (response.status < 400) {
    return [...problems, `status ${response.status} is answered to a route the document lacks`]
  }
  // HEAD: GET's status and headers, never a body (contract §15).
  if (method === 'HEAD') return response.body === '' ? problems : [...problems, 'HEAD has a body']
  const schema = response.status === 404 ? 'RouteNotFoundError' : 'Error'
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    return [...problems, 'the body is not JSON']
  }
  problems.push(...schemaProblems(`/components/schemas/${schema}`, body, 'body'))
  if (isObject(body) && body.status !== response.status) {
    problems.push(`body/status ${String(body.status)} differs from the HTTP status`)
  }
  return problems
}

/**
 * Checks one response against openapi/petstore-sandbox.openapi.json: the
 * operation and status exist, the headers it declares are present and well
 * formed (numbers read from their text), and the body matches its media type
 * and schema. A declared path with an undeclared method is checked against
 * the path's 405 (or whichever of its operations declares the status); an
 * undeclared path gets the Error checks of a 404. `request.path` is below
 * `/v1`, except control API paths, which start with `/__sandbox`. Schemas are
 * compiled once. Returns the problems found, `[]` when none.
 *
 * @example
 * const problems = checkResponseAgainstOpenApi({ request, response })
 * expect(problems).toEqual([])
 */
export const checkResponseAgainstOpenApi = ({
  request,
  response,
}: {
  request: WireRequest
  response: WireResponse
}): string[] => {
  const path = request.path.split(/[?#]/)[0] ?? ''
  const pathItem = findPathItem(path)
  if (pathItem === undefined) return undeclaredProblems(path, response, request.method)
  // HEAD is answered wherever GET is (contract §15), with GET's status and headers.
  const method = request.method === 'HEAD' ? 'get' : request.method.toLowerCase()
  const operation = METHODS.some((m) => m === method) ? child(pathItem, method) : undefined
  if (operation === undefined) {
    // Another method on a declared path: the path's operations list its 405. Errors before
    // routing (401, 429, 400) are no operation's answers, so they carry no operation's headers.
    const sibling =
      response.status === 405
        ? METHODS.map((m) => child(pathItem, m))
            .map((op) => (op === undefined ? undefined : findResponse(op, 405)))
            .find((definition) => definition !== undefined)
        : undefined
    return sibling === undefined
      ? undeclaredProblems(path, response, request.method)
      : responseProblems(sibling, request, response)
  }
  const definition = findResponse(operation, response.status)
  if (definition === undefined) {
    const id = typeof operation.node.operationId === 'string' ? operation.node.operationId : method
    return [`status ${response.status} is not declared for ${id}`]
  }
  return responseProblems(definition, request, response)
}
