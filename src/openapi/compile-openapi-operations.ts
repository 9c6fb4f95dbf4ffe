import { templateProblem } from '../http/router.js'
import { isBinarySchema } from './binary-body.js'
import { createSchemaCompiler, type SchemaCheck, type SchemaNotices } from './compile-schemas.js'
import { OpenApiDocumentError } from './load-openapi-document.js'
import {
  type JsonSchema,
  OPENAPI_METHODS,
  type OpenApiDocument,
  type OpenApiMediaType,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiPathItem,
} from './openapi-document.js'

/** A parameter of an added operation, its schema compiled. */
export interface CompiledParameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  schema: JsonSchema
  check: SchemaCheck
  /** How a query value is written (OpenAPI's `style`; `form` when not said). */
  style: 'form' | 'deepObject' | 'spaceDelimited' | 'pipeDelimited'
  /** `form`'s and `deepObject`'s `explode` (true when not said). */
  explode: boolean
  /** Given as `content: application/json`: the value is JSON text. */
  json: boolean
}

const QUERY_STYLES = new Set(['form', 'deepObject', 'spaceDelimited', 'pipeDelimited'])

/** A header the success response declares (required ones, and `Location`). */
export interface SuccessHeader {
  name: string
  schema: JsonSchema
  example: { value: unknown } | undefined
}

/** The document's own success response of an operation: what the sandbox answers. */
export interface SuccessResponse {
  /** The lowest declared 2xx, else the lowest 3xx, else 200 for `2XX`/`default`, else the lowest declared. */
  status: number
  /** The JSON schema of its body; undefined for a response without a JSON body (204). */
  schema: JsonSchema | undefined
  check: SchemaCheck | undefined
  /** The document's example for it, when given. */
  example: { value: unknown } | undefined
  /**
   * The Content-Type the sandbox answers with: the JSON media type the
   * document declares, `application/json` for a JSON schema under any media
   * range, else the first declared one (a `text` range as `text/plain`, an
   * `image` range as `image/png`, `audio` as `audio/wav`, `video` as
   * `video/mp4`); undefined when the response declares no content.
   */
  contentType: string | undefined
  /** The schema of a body that is not JSON (`text/plain` with `type: string`), when declared. */
  otherSchema: JsonSchema | undefined
  /** Headers the response declares as required, and `Location`. */
  headers: SuccessHeader[]
}

/** What a stateful collection (`/things` and `/things/{id}`) keeps and how its records look. */
export interface CollectionShape {
  /** The collection's path, e.g. `/categories`. */
  path: string
  /** The item path's parameter, e.g. `categoryId`. */
  idParam: string
  /** The record's id property (the parameter's name if the schema has it, else `id`). */
  idField: string
  idType: 'integer' | 'string'
  /** The id's `format` (a `uuid` id is made as one). */
  idFormat: string | undefined
  /** The schema of one record, and its check. */
  item: JsonSchema
  /** The schema of the id property (its pattern, format and lengths: ids are made valid by it). */
  idSchema: JsonSchema
  /** The record's properties (those of `allOf` parts merged). */
  properties: Record<string, JsonSchema>
  check: SchemaCheck
  /** The list's own item schema when it is not the record's (a summary requiring other fields), and its check. */
  listItem: { schema: JsonSchema; check: SchemaCheck } | undefined
  /**
   * The create's answer schema when it describes the same record (it carries the id) in
   * another shape than the item's answer (Adyen: the create's session and the fetch's
   * `{ id, status }`): records are valid by both, so a create reads back as it answered.
   */
  created?: { schema: JsonSchema; check: SchemaCheck } | undefined
  /** The property of the item's answer that holds the record (`{ data: record }`, Twitter), when it wraps one. */
  wrappedIn?: string | undefined
  /** The item's answer when the record is its first kind (`anyOf: [bank_account, card]`, Stripe): a create answering it answers the record. */
  kindOf?: JsonSchema | undefined
}

/** One response the document declares for an operation (`200`, `4XX`, `default`), its JSON schema compiled. */
export interface DeclaredResponse {
  /** The document's key: a status, a range such as `2XX`, or `default`. */
  code: string
  /** The JSON schema of its body; undefined when it declares no JSON body. */
  schema: JsonSchema | undefined
  check: SchemaCheck | undefined
}

export type OperationRole = 'list' | 'create' | 'fetch' | 'replace' | 'update' | 'delete' | 'static'

/** One operation of the document the sandbox adds, compiled once at start. */
export interface CompiledOperation {
  /** The document's `operationId`, else `METHOD /path/template`. */
  id: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The path template below the base path, e.g. `/categories/{categoryId}`. */
  path: string
  parameters: CompiledParameter[]
  body: { required: boolean; schema: JsonSchema; check: SchemaCheck } | undefined
  /**
   * The request body's declared media types that are not JSON (`multipart/form-data`,
   * `application/octet-stream`, `image/*`): a body sent as one of them is taken as it is
   * (decision 0067); `required` when the document requires a body.
   */
  otherBodies?: { types: string[]; required: boolean } | undefined
  success: SuccessResponse
  /** Every response the document declares, for checking answers (upstream, verify). */
  responses: DeclaredResponse[]
  role: OperationRole
  collection: CollectionShape | undefined
  /**
   * For a list whose answer wraps the records in an object (`{ data: [...],
   * has_more }`): the property that holds them. Undefined for a bare array.
   */
  listField: string | undefined
}

/** The contract's own operations: a document may not redefine them. */
const CONTRACT_OPERATIONS = [
  { id: 'listPets', method: 'GET', path: '/pets' },
  { id: 'createPet', method: 'POST', path: '/pets' },
  { id: 'getPet', method: 'GET', path: '/pets/{}' },
] as const

/** A schema and its `allOf` parts, each once (an `allOf` may be recursive, or shared). */
const allOfParts = (schema: JsonSchema): JsonSchema[] => {
  const parts: JsonSchema[] = []
  const seen = new Set<JsonSchema>()
  const visit = (s: JsonSchema): void => {
    if (seen.has(s)) return
    seen.add(s)
    for (const part of Array.isArray(s.allOf) ? s.allOf : [])
      if (typeof part === 'object' && part !== null && !Array.isArray(part))
        visit(part as JsonSchema)
    parts.push(s)
  }
  visit(schema)
  return parts
}

/** A schema's properties, those of its `allOf` parts included. */
export const propertiesOf = (schema: JsonSchema): Record<string, JsonSchema> =>
  Object.assign(
    {},
    ...allOfParts(schema).map((s) =>
      typeof s.properties === 'object' && s.properties !== null ? s.properties : {},
    ),
  ) as Record<string, JsonSchema>

/** A schema's required properties, those of its `allOf` parts included. */
export const requiredOf = (schema: JsonSchema): string[] => [
  ...new Set(
    allOfParts(schema).flatMap((s) => (Array.isArray(s.required) ? (s.required as string[]) : [])),
  ),
]

const shapeOf = (template: string): string => template.replace(/\{[^}]*\}/g, '{}')

const jsonContent = (
  content: Record<string, OpenApiMediaType> | undefined,
): OpenApiMediaType | undefined => {
  if (content === undefined) return undefined
  return Object.entries(content).find(([t]) => /^application\/(.+\+)?json\s*(;|$)/i.test(t))?.[1]
}

/** The declared JSON media type's name, as the answer's Content-Type. */
const jsonTypeOf = (content: Record<string, OpenApiMediaType> | undefined): string =>
  Object.keys(content ?? {}).find((t) => /^application\/(.+\+)?json\s*(;|$)/i.test(t)) ??
  'application/json'

/** The Content-Type that answers a declared media type: a range made concrete. */
const answerType = (declared: string): string => {
  const type = declared.split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === '*/*' || type === 'application/*') return 'application/octet-stream'
  if (type === 'text/*') return 'text/plain'
  if (type === 'image/*') return 'image/png'
  if (type === 'audio/*') return 'audio/wav'
  if (type === 'video/*') return 'video/mp4'
  return declared
}

/**
 * The status an operation answers on success, from the document's keys
 * (decision 0059): the lowest 2xx, else `2XX`, else the lowest 3xx (a
 * redirect-only operation), else `default`, else the lowest declared; 200
 * only when the document declares nothing.
 */
const successCode = (codes: string[]): string => {
  const sorted = [...codes].sort()
  return (
    sorted.find((c) => /^2\d\d$/.test(c)) ??
    sorted.find((c) => /^2xx$/i.test(c)) ??
    sorted.find((c) => /^3\d\d$/.test(c)) ??
    sorted.find((c) => c === 'default') ??
    sorted.find((c) => /^[1-5]\d\d$/.test(c)) ??
    '200'
  )
}

const exampleOf = (media: OpenApiMediaType | undefined): { value: unknown } | undefined => {
  if (media === undefined) return undefined
  if (media.example !== undefined) return { value: media.example }
  const first = media.examples === undefined ? undefined : Object.values(media.examples)[0]
  return first?.value === undefined ? undefined : { value: first.value }
}

/** Where the document's paths start: below the base path (a `/v1/…` path is taken as relative when the servers do not end in it). */
const relativePath = (path: string, basePath: string, serversEndInBase: boolean): string =>
  !serversEndInBase && basePath !== '' && path.startsWith(`${basePath}/`)
    ? path.slice(basePath.length)
    : path

const serversEndIn = (document: OpenApiDocument, basePath: string): boolean => {
  const url = document.servers?.[0]?.url
  if (typeof url !== 'string') return false
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/\/+$/, '')
  return basePath !== '' && path.endsWith(basePath)
}

export interface CompileOptions {
  /** The sandbox's base path, e.g. `/v1`. */
  basePath: string
  /** Collects what compiling noticed (unknown formats, patterns left unchecked). */
  notices?: SchemaNotices | undefined
  /** The document's schema compiler, when the caller shares it (one ajv per document); else made here. */
  compile?: ReturnType<typeof createSchemaCompiler> | undefined
}

/**
 * Orders two templates: at the first segment where they differ, a literal
 * segment before one with a parameter in it, and a segment with literal text
 * around its parameter before a bare `{param}`; else as given (0).
 */
const specificity = (a: string, b: string): number => {
  const left = a.split('/')
  const right = b.split('/')
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const x = left[i] ?? ''
    const y = right[i] ?? ''
    if (x === y) continue
    const rank = (s: string): number => (!s.includes('{') ? 0 : /^\{[^}]*\}$/.test(s) ? 2 : 1)
    return rank(x) - rank(y)
  }
  return 0
}

/**
 * Every operation of the document the contract does not define, compiled:
 * parameters and JSON request bodies with their schemas, the first success
 * response, and the role each plays (a collection-shaped pair `/things` and
 * `/things/{id}` is stateful). Throws an OpenApiDocumentError for an operation
 * that redefines a contract operation, or a path the router cannot take.
 *
 * @example
 * const operations = compileOpenApiOperations(document, { basePath: '/v1' })
 */
export const compileOpenApiOperations = (
  document: OpenApiDocument,
  options: CompileOptions,
): CompiledOperation[] => {
  const dialect = document.openapi.startsWith('3.1') ? '3.1' : '3.0'
  const schemaCompiler = options.compile ?? createSchemaCompiler(dialect, options.notices)
  if (options.notices !== undefined) schemaCompiler.notice(document.paths ?? {})
  const compile = schemaCompiler
  const serversEndInBase = serversEndIn(document, options.basePath)
  const found: {
    method: CompiledOperation['method']
    path: string
    rawPath: string
    operation: OpenApiOperation
    parameters: OpenApiParameter[]
  }[] = []
  const ids = new Map<string, string>()
  const entries = Object.entries(document.paths ?? {}).filter(
    (entry): entry is [string, OpenApiPathItem] =>
      typeof entry[1] === 'object' && entry[1] !== null,
  )
  // A path made relative must not land on another path of the document (`/v1/things` next to
  // `/things`): it then keeps its prefix, so neither is served with the other's schemas.
  const written = new Set(entries.map(([rawPath]) => shapeOf(rawPath)))
  for (const [rawPath, item] of entries) {
    const relative = relativePath(rawPath, options.basePath, serversEndInBase)
    const path = relative !== rawPath && written.has(shapeOf(relative)) ? rawPath : relative
    // A fragment or a query in a path (Box's `/files/{id}#add_shared_link`, to tell apart two
    // operations of one path) is never part of a request: such an operation is left out, said once.
    if (/[#?]/.test(path)) {
      options.notices?.unreachablePaths?.add(rawPath)
      continue
    }
    const problem = templateProblem(path)
    if (problem !== undefined)
      throw new OpenApiDocumentError(
        `the path "${rawPath}" ${problem.replace(/\.$/, '')}. Fix the path.`,
      )
    for (const method of OPENAPI_METHODS) {
      const operation = item[method]
      if (typeof operation !== 'object' || operation === null) continue
      const upper = method.toUpperCase() as CompiledOperation['method']
      const clash = CONTRACT_OPERATIONS.find(
        (c) => (c.method === upper && c.path === shapeOf(path)) || c.id === operation.operationId,
      )
      if (clash !== undefined)
        throw new OpenApiDocumentError(
          `${upper} ${rawPath}${operation.operationId === undefined ? '' : ` (${operation.operationId})`} redefines the contract's ${clash.id} (${clash.method} ${options.basePath}${clash.path.replace('{}', '{petId}')}). Remove it from the document: the sandbox answers it.`,
        )
      const id =
        typeof operation.operationId === 'string' ? operation.operationId : `${upper} ${path}`
      const before = ids.get(id)
      if (before !== undefined)
        throw new OpenApiDocumentError(
          `the operationId "${id}" of ${upper} ${rawPath} is also that of ${before}. Make each unique.`,
        )
      ids.set(id, `${upper} ${rawPath}`)
      const parameters = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ].filter((p): p is OpenApiParameter => typeof p === 'object' && p !== null)
      found.push({ method: upper, path, rawPath, operation, parameters })
    }
  }
  // Concrete paths before templated ones (OpenAPI: `/things/special` before `/things/{a}`),
  // whatever order the document lists them in; otherwise the document's order.
  const ordered: typeof found = []
  for (const f of found) {
    const before = ordered.findIndex((g) => specificity(g.path, f.path) > 0)
    if (before === -1) ordered.push(f)
    else ordered.splice(before, 0, f)
  }
  found.splice(0, found.length, ...ordered)

  const compiledParameters = (list: OpenApiParameter[]): CompiledParameter[] => {
    const byKey = new Map<string, OpenApiParameter>()
    // An operation's parameter overrides the path item's of the same name and place.
    for (const p of list) byKey.set(`${p.in}:${p.name}`, p)
    return [...byKey.values()]
      .filter((p): p is OpenApiParameter & { in: 'path' | 'query' | 'header' } => p.in !== 'cookie')
      .map((p) => {
        const media = p.schema === undefined ? jsonContent(p.content) : undefined
        const schema = p.schema ?? media?.schema ?? {}
        const style = p.style !== undefined && QUERY_STYLES.has(p.style) ? p.style : 'form'
        return {
          name: p.name,
          in: p.in,
          required: p.required === true || p.in === 'path',
          schema,
          check: compile(schema),
          style: style as CompiledParameter['style'],
          explode: p.explode ?? (style !== 'spaceDelimited' && style !== 'pipeDelimited'),
          json: media !== undefined,
        }
      })
  }

  const successOf = (operation: OpenApiOperation): SuccessResponse => {
    const responses = operation.responses ?? {}
    const code = successCode(Object.keys(responses))
    const response = Object.hasOwn(responses, code) ? responses[code] : undefined
    const status = /^[1-5]\d\d$/.test(code) ? Number(code) : 200
    const content = response?.content
    const json = jsonContent(content)
    const anyType =
      json === undefined && content !== undefined
        ? Object.entries(content).find(([t]) => /^(\*\/\*|application\/\*)\s*(;|$)/.test(t))
        : undefined
    // A range's schema is JSON unless it describes bytes (`format: binary`, decision 0067).
    const media =
      json ??
      (anyType?.[1].schema === undefined || isBinarySchema(anyType[1].schema)
        ? undefined
        : anyType[1])
    const schema = media?.schema
    const [firstType, firstMedia] = content === undefined ? [] : (Object.entries(content)[0] ?? [])
    const headers = Object.entries(response?.headers ?? {})
      .filter(([name, h]) => h?.required === true || name.toLowerCase() === 'location')
      .map(([name, h]) => ({
        name,
        schema: h.schema ?? { type: 'string' },
        example:
          h.example !== undefined
            ? { value: h.example }
            : h.schema?.example !== undefined
              ? { value: h.schema.example }
              : undefined,
      }))
    return {
      status,
      schema,
      check: schema === undefined ? undefined : compile(schema),
      example: exampleOf(media ?? firstMedia),
      contentType:
        media !== undefined
          ? json !== undefined
            ? jsonTypeOf(content)
            : 'application/json'
          : firstType === undefined
            ? undefined
            : answerType(firstType),
      otherSchema: media === undefined ? firstMedia?.schema : undefined,
      headers,
    }
  }

  const declaredOf = (operation: OpenApiOperation): DeclaredResponse[] =>
    Object.entries(operation.responses ?? {})
      .filter(([code]) => /^([1-5](\d\d|XX)|default)$/i.test(code))
      .map(([code, response]) => {
        const schema = jsonContent(response.content)?.schema
        return {
          code: code.toLowerCase() === 'default' ? 'default' : code.toUpperCase(),
          schema,
          check: schema === undefined ? undefined : compile(schema),
        }
      })

  // Item paths that name their parameter differently (`/things/{a}` GET, `/things/{b}` PUT)
  // are one collection: grouped by shape, each operation reading its own parameter's name.
  const byShape = new Map<string, typeof found>()
  for (const f of found) byShape.set(shapeOf(f.path), [...(byShape.get(shapeOf(f.path)) ?? []), f])
  const collections = new Map<string, CollectionShape>()
  for (const [shape, list] of byShape) {
    if (!/^(.+)\/\{\}$/.test(shape)) continue
    const first = list[0]
    const match = first === undefined ? null : /^(.+)\/\{([^{}/]+)\}$/.exec(first.path)
    if (match === null) continue
    const [, base = ''] = match
    const onBase = byShape.get(shapeOf(base)) ?? []
    if (onBase.length === 0) continue
    // The record's shape: the item's GET, else its PUT, else the create's answer.
    const source =
      list.find((f) => f.method === 'GET') ??
      list.find((f) => f.method === 'PUT') ??
      onBase.find((f) => f.method === 'POST')
    if (source === undefined) continue
    const answer = successOf(source.operation).schema
    if (answer === undefined) continue
    const names = list.map((f) => /\{([^{}/]+)\}$/.exec(f.path)?.[1] ?? '')
    // The record's id field: the parameter's own name, else `id`, else the parameter's last word
    // (`custom_field_gid` names Asana's `gid`, `accountSid` a `sid`, `user_uuid` a `uuid`).
    const idFieldOf = (schema: JsonSchema): string | undefined => {
      const own = propertiesOf(schema)
      return (
        names.find((name) => Object.hasOwn(own, name)) ??
        (Object.hasOwn(own, 'id')
          ? 'id'
          : names.map(lastWord).find((word) => word !== undefined && Object.hasOwn(own, word)))
      )
    }
    // The record is the answer, or the one object property of the answer that carries the id
    // (`{ data: record, errors, includes }`, Twitter): then every answer of one record wraps it.
    // A fetch answering an array of records (Netlify's `GET /accounts/{account_id}`) answers the
    // record in an array of one: the record is the array's items.
    const inArray =
      isArraySchema(answer) && idFieldOf(itemsOf(answer)) !== undefined
        ? itemsOf(answer)
        : undefined
    const wrapper =
      inArray === undefined && idFieldOf(answer) === undefined
        ? wrappingOf(answer, idFieldOf)
        : undefined
    // A record of one of several kinds (Stripe's external account: a bank account or a card),
    // each kind carrying the id: the first kind is the record, answered where the union is.
    const kinds = [answer.anyOf, answer.oneOf].find(
      (list): list is JsonSchema[] => Array.isArray(list) && list.length > 0,
    )
    const kind =
      inArray === undefined &&
      wrapper === undefined &&
      idFieldOf(answer) === undefined &&
      kinds?.every((k) => typeof k === 'object' && k !== null && idFieldOf(k) !== undefined)
        ? kinds[0]
        : undefined
    const item = inArray ?? wrapper?.schema ?? kind ?? answer
    const properties = propertiesOf(item)
    const idField = idFieldOf(item)
    if (idField === undefined) continue
    const idSchema = (Object.hasOwn(properties, idField) ? properties[idField] : undefined) ?? {}
    const idType = idSchema.type === 'integer' || idSchema.type === 'number' ? 'integer' : 'string'
    const idFormat = typeof idSchema.format === 'string' ? idSchema.format : undefined
    const lister = onBase.find((f) => f.method === 'GET')
    const listed =
      lister === undefined ? undefined : listingOf(successOf(lister.operation).schema, idField)
    const listItem =
      listed === undefined || listed.items === item || sameJson(listed.items, item)
        ? undefined
        : { schema: listed.items, check: compile(listed.items) }
    const creator = onBase.find((f) => f.method === 'POST')
    const createdSchema = creator === undefined ? undefined : successOf(creator.operation).schema
    const created =
      createdSchema === undefined ||
      wrapper !== undefined ||
      createdSchema === item ||
      sameJson(createdSchema, item) ||
      createdSchema.additionalProperties === false ||
      item.additionalProperties === false ||
      !Object.hasOwn(propertiesOf(createdSchema), idField)
        ? undefined
        : { schema: createdSchema, check: compile(createdSchema) }
    const collection: CollectionShape = {
      path: onBase[0]?.path ?? base,
      idParam: names[0] ?? '',
      idField,
      idType,
      idFormat,
      idSchema,
      item,
      properties,
      check: compile(item),
      listItem,
      created,
      wrappedIn: wrapper?.name,
      ...(kind === undefined ? {} : { kindOf: answer }),
    }
    collections.set(shapeOf(base), collection)
  }

  return found.map(({ method, path, operation, parameters }) => {
    const media = jsonContent(operation.requestBody?.content)
    const success = successOf(operation)
    const { role, collection, listField } = roleOf(
      method,
      path,
      success,
      collections,
      media?.schema,
    )
    return {
      id: typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`,
      method,
      path,
      parameters: compiledParameters(parameters),
      body:
        media?.schema === undefined
          ? undefined
          : {
              required: operation.requestBody?.required === true,
              schema: media.schema,
              check: compile(media.schema),
            },
      otherBodies: otherBodiesOf(operation),
      success,
      responses: declaredOf(operation),
      role,
      collection: role === 'static' ? undefined : collection,
      listField,
    }
  })
}

const otherBodiesOf = (operation: OpenApiOperation): CompiledOperation['otherBodies'] => {
  const types = Object.keys(operation.requestBody?.content ?? {})
    .map((t) => t.split(';')[0]?.trim().toLowerCase() ?? '')
    .filter((t) => t !== '' && !/^application\/(.+\+)?json$/.test(t))
  return types.length === 0
    ? undefined
    : { types, required: operation.requestBody?.required === true }
}

/** A parameter name's last word, lower case (`custom_field_gid` → `gid`, `accountSid` → `sid`); undefined for a one-word name. */
const lastWord = (name: string): string | undefined => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\-.]+/)
    .filter((w) => w !== '')
  const last = words.at(-1)
  return words.length < 2 || last === undefined || last.length < 2 ? undefined : last.toLowerCase()
}

const sameJson = (a: unknown, b: unknown): boolean => {
  try {
    return JSON.stringify(a) === JSON.stringify(b)
  } catch {
    return false // a cyclic schema: compared by identity only
  }
}

/** Whether a schema describes an array (`type: array`, or `items` without a type). */
export const isArraySchema = (schema: JsonSchema | undefined): schema is JsonSchema =>
  schema !== undefined &&
  (schema.type === 'array' ||
    (Array.isArray(schema.type) && schema.type.includes('array')) ||
    (schema.type === undefined && typeof schema.items === 'object' && schema.items !== null))

const itemsOf = (schema: JsonSchema): JsonSchema =>
  typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items)
    ? (schema.items as JsonSchema)
    : {}

/** The one object property of an answer whose schema carries the id field (`data` in `{ data: record, errors }`). */
const wrappingOf = (
  answer: JsonSchema,
  idFieldOf: (schema: JsonSchema) => string | undefined,
): { name: string; schema: JsonSchema } | undefined => {
  const carrying = Object.entries(propertiesOf(answer)).filter(
    ([, sub]) => !isArraySchema(sub) && idFieldOf(sub) !== undefined,
  )
  const [only] = carrying
  return carrying.length === 1 && only !== undefined
    ? { name: only[0], schema: only[1] }
    : undefined
}

/**
 * How a list's answer holds the records: a bare array, or an object with the
 * array in one property (`data`, `items`, `members`): the one whose items
 * carry the id field, else the only array. Undefined for any other answer.
 */
const listingOf = (
  schema: JsonSchema | undefined,
  idField: string,
): { field: string | undefined; items: JsonSchema } | undefined => {
  if (schema === undefined) return undefined
  // A bare array lists records only when its items carry the id (not a list of names).
  if (isArraySchema(schema))
    return Object.hasOwn(propertiesOf(itemsOf(schema)), idField)
      ? { field: undefined, items: itemsOf(schema) }
      : undefined
  const arrays = Object.entries(propertiesOf(schema)).filter(([, sub]) => isArraySchema(sub))
  const withId = arrays.find(([, sub]) => Object.hasOwn(propertiesOf(itemsOf(sub)), idField))
  const chosen = withId ?? (arrays.length === 1 ? arrays[0] : undefined)
  return chosen === undefined ? undefined : { field: chosen[0], items: itemsOf(chosen[1]) }
}

/**
 * The role of an operation (decision 0059): on a collection's path, GET
 * lists when its answer holds the records (an array, or an object wrapping
 * one) and POST creates when the document says it does (201, or its answer
 * is the record); on the item path, GET, PUT, PATCH and DELETE act on one
 * record. Anything else (a batch fetch or a ping declared with POST) is
 * static: answered from its schema and examples, the records left alone.
 */
const roleOf = (
  method: CompiledOperation['method'],
  path: string,
  success: SuccessResponse,
  collections: ReadonlyMap<string, CollectionShape>,
  body: JsonSchema | undefined,
): { role: OperationRole; collection?: CollectionShape; listField?: string | undefined } => {
  // Collections are keyed by their path's shape (`/things/{}`): item paths that name their
  // parameter differently are one collection (decision 0058).
  const own = collections.get(shapeOf(path))
  if (own !== undefined) {
    if (method === 'POST') {
      // Its answer is the record, or wraps it where the item's answer does (`{ data: record }`).
      const answered = success.schema === undefined ? {} : propertiesOf(success.schema)
      const key = own.wrappedIn
      const wrapped =
        key === undefined ? undefined : Object.hasOwn(answered, key) ? answered[key] : undefined
      // Or it is the create's own schema the record joins (another open schema carrying the id,
      // Mailchimp's automations declared 200): the record is made valid by both.
      const answersRecord =
        success.schema !== undefined &&
        (success.schema === own.item ||
          sameJson(success.schema, own.item) ||
          success.schema === own.created?.schema ||
          (own.kindOf !== undefined &&
            (success.schema === own.kindOf || sameJson(success.schema, own.kindOf))) ||
          (wrapped !== undefined && Object.hasOwn(propertiesOf(wrapped), own.idField)))
      // An array of records answered for one record sent (Netlify's members): the record in an
      // array of one. A batch (an array sent) stays static: one record would not answer it.
      const answersInArray =
        isArraySchema(success.schema) &&
        Object.hasOwn(propertiesOf(itemsOf(success.schema)), own.idField) &&
        !isArraySchema(body)
      return success.status === 201 || answersRecord || answersInArray
        ? { role: 'create', collection: own }
        : { role: 'static' }
    }
    if (method === 'GET') {
      const listed = listingOf(success.schema, own.idField)
      return listed === undefined
        ? { role: 'static' }
        : { role: 'list', collection: own, listField: listed.field }
    }
    return { role: 'static' }
  }
  const item = /^(.+)\/\{([^{}/]+)\}$/.exec(path)
  const collection = item === null ? undefined : collections.get(shapeOf(item[1] ?? ''))
  if (collection === undefined || item === null) return { role: 'static' }
  const role = (
    { GET: 'fetch', PUT: 'replace', PATCH: 'update', DELETE: 'delete', POST: 'static' } as const
  )[method]
  if (role === 'static') return { role }
  // The same collection, read through this template's own parameter name.
  const idParam = item[2] ?? collection.idParam
  return {
    role,
    collection: idParam === collection.idParam ? collection : { ...collection, idParam },
  }
}
