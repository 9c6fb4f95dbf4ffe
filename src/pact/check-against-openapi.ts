/**
 * The pre-check of a pact, as a bi-directional contract test (PactFlow's)
 * runs it: each interaction's operation must be in the OpenAPI document, its
 * status declared for that operation, and its JSON body valid against the
 * declared schema with no property the schema does not declare (unless the
 * schema allows more with `additionalProperties`). Walks the subset of JSON
 * Schema the document uses: `$ref`, `allOf`, `oneOf`, `anyOf`, `type`,
 * `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`,
 * `minItems`, `minimum`, `maximum`, `minLength`, `maxLength`.
 */

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** An OpenAPI 3.1 document, as parsed JSON. */
export type OpenApiDocument = Json

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const

const resolve = (doc: OpenApiDocument, node: unknown, depth = 0): Json => {
  if (!isObject(node)) return {}
  const ref = node.$ref
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 20) return node
  let target: unknown = doc
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined
  }
  return resolve(doc, target, depth + 1)
}

/** The operation object with this `operationId`, or undefined. */
export const findOperation = (doc: OpenApiDocument, operationId: string): Json | undefined => {
  const paths = isObject(doc.paths) ? doc.paths : {}
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue
    for (const method of METHODS) {
      const operation = item[method]
      if (isObject(operation) && operation.operationId === operationId) return operation
    }
  }
  return undefined
}

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : Number.isInteger(value)
        ? 'integer'
        : typeof value

const typeFits = (expected: unknown, value: unknown): boolean => {
  const types = Array.isArray(expected) ? expected : [expected]
  const actual = typeOf(value)
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'))
}

const where = (path: string): string => (path === '' ? 'the body' : path)

const countCodePoints = (text: string): number => [...text].length

/** The schema's parts merged through `allOf`: what it declares of an object. */
const declaredProperties = (
  doc: OpenApiDocument,
  schema: Json,
): { names: Set<string>; open: boolean } => {
  const names = new Set<string>()
  let open = false
  const visit = (node: Json): void => {
    if (isObject(node.properties)) for (const name of Object.keys(node.properties)) names.add(name)
    const extra = node.additionalProperties
    if (extra === true || isObject(extra)) open = true
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(resolve(doc, part))
  }
  visit(schema)
  return { names, open }
}

const checkObject = (
  doc: OpenApiDocument,
  schema: Json,
  value: Json,
  path: string,
  out: string[],
): void => {
  const required = Array.isArray(schema.required) ? schema.required.map(String) : []
  for (const name of required)
    if (!Object.hasOwn(value, name))
      out.push(`${path === '' ? '' : `${path}.`}${name} is required by the OpenAPI document`)
  const properties = new Map(Object.entries(isObject(schema.properties) ? schema.properties : {}))
  for (const [name, item] of Object.entries(value)) {
    const at = path === '' ? name : `${path}.${name}`
    if (properties.has(name)) checkValue(doc, properties.get(name), item, at, out)
    else if (isObject(schema.additionalProperties))
      checkValue(doc, schema.additionalProperties, item, at, out)
  }
}

/** Pushes onto `out` every way `value` breaks `schema` (the paths in dots: `0.name`). */
const checkValue = (
  doc: OpenApiDocument,
  raw: unknown,
  value: unknown,
  path: string,
  out: string[],
  // A part of an `allOf`: the whole schema, not the part, says which properties are declared.
  part = false,
): void => {
  const schema = resolve(doc, raw)
  if (Array.isArray(schema.allOf))
    for (const each of schema.allOf) checkValue(doc, each, value, path, out, true)
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key]
    if (!Array.isArray(options)) continue
    const fits = options.some((option) => {
      const found: string[] = []
      checkValue(doc, option, value, path, found)
      return found.length === 0
    })
    if (!fits)
      out.push(`${where(path)} matches none of the schemas the OpenAPI document allows there`)
  }
  if (schema.type !== undefined && !typeFits(schema.type, value)) {
    out.push(`${where(path)} must be ${String(schema.type)}, got ${typeOf(value)}`)
    return
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value))
    out.push(
      `${where(path)} is ${JSON.stringify(value)}, not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`,
    )
  if ('const' in schema && schema.const !== value)
    out.push(`${where(path)} is ${JSON.stringify(value)}, not ${JSON.stringify(schema.const)}`)
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      out.push(`${where(path)} is below ${schema.minimum}`)
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      out.push(`${where(path)} is above ${schema.maximum}`)
  }
  if (typeof value === 'string') {
    const length = countCodePoints(value)
    if (typeof schema.minLength === 'number' && length < schema.minLength)
      out.push(`${where(path)} is shorter than ${schema.minLength}`)
    if (typeof schema.maxLength === 'number' && length > schema.maxLength)
      out.push(`${where(path)} is longer than ${schema.maxLength}`)
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      out.push(`${where(path)} has fewer than ${schema.minItems} items`)
    if (schema.items !== undefined)
      for (const [i, item] of value.entries())
        checkValue(doc, schema.items, item, path === '' ? String(i) : `${path}.${i}`, out)
  }
  if (
    isObject(value) &&
    (schema.type === 'object' || isObject(schema.properties) || Array.isArray(schema.allOf))
  ) {
    checkObject(doc, schema, value, path, out)
    const { names, open } = declaredProperties(doc, schema)
    if (!part && !open && (isObject(schema.properties) || Array.isArray(schema.allOf))) {
      for (const name of Object.keys(value))
        if (!names.has(name))
          out.push(
            `${path === '' ? '' : `${path}.`}${name} is not declared by the OpenAPI document`,
          )
    }
  }
}

/** An answer as the pre-check sees it. */
export interface CheckedAnswer {
  operationId: string | null
  method: string
  path: string
  status: number
  contentType: string | undefined
  /** The parsed JSON body; undefined for none or a body that is not JSON. */
  json: unknown
  hasBody: boolean
  /**
   * The sandbox's own `proxy-error` page (a gateway's 502 HTML, contract §19):
   * what the sandbox answers itself always passes, whether or not the document
   * declares a gateway's page for the operation.
   */
  gatewayPage?: boolean
}

/**
 * Every reason a broker's bi-directional comparison would refuse this answer
 * (empty when the document covers it).
 *
 * @example
 * checkAgainstOpenApi(doc, { operationId: 'listPets', method: 'GET', path: '/v1/pets', status: 200, contentType: 'application/json', json: [], hasBody: true }) // []
 */
export const checkAgainstOpenApi = (doc: OpenApiDocument, answer: CheckedAnswer): string[] => {
  if (answer.gatewayPage === true) return []
  const operation = answer.operationId === null ? undefined : findOperation(doc, answer.operationId)
  if (operation === undefined)
    return [`no operation of the OpenAPI document answers ${answer.method} ${answer.path}`]
  const responses = isObject(operation.responses) ? operation.responses : {}
  const code = String(answer.status)
  const declared = [code, `${code[0]}XX`, `${code[0]}xx`, 'default']
    .map((name) => (Object.hasOwn(responses, name) ? responses[name] : undefined))
    .find((found) => found !== undefined)
  if (declared === undefined)
    return [
      `status ${answer.status} is not declared for ${answer.operationId} by the OpenAPI document`,
    ]
  const response = resolve(doc, declared)
  const content = isObject(response.content) ? response.content : {}
  if (!answer.hasBody) return []
  const media = answer.contentType?.split(';')[0]?.trim().toLowerCase() ?? ''
  // The answer's media type, else the range that covers it (`application/*`, `*/*`), as a
  // broker matches content (the declared keys compared without case or parameters).
  const declaredMedia = new Map(
    Object.keys(content).map((key) => [key.split(';')[0]?.trim().toLowerCase() ?? '', key]),
  )
  const key = [media, `${media.split('/')[0]}/*`, '*/*']
    .map((name) => declaredMedia.get(name))
    .find((found) => found !== undefined)
  const entry =
    media !== '' && key !== undefined && Object.hasOwn(content, key) ? content[key] : undefined
  if (!isObject(entry))
    return [
      `the OpenAPI document declares no ${media === '' ? 'body without a media type' : `${media} body`} for ${answer.operationId} ${answer.status}`,
    ]
  if (entry.schema === undefined || answer.json === undefined) return []
  const out: string[] = []
  checkValue(doc, entry.schema, answer.json, '', out)
  return out.map((problem) => `response body: ${problem}`)
}
