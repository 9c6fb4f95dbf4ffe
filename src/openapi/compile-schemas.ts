import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { RE2JS } from 're2js'
import type { JsonSchema } from './openapi-document.js'

/** A schema compiled once: true for a valid value, else the problems found. */
export type SchemaCheck = (value: unknown) => true | readonly ErrorObject[]

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 }

/**
 * The largest RE2 program a document's `pattern` may compile to: matching
 * costs at most the text's length times this (a body is at most 64 KiB).
 */
export const MAX_PATTERN_PROGRAM = 5_000

/** Keywords whose value is one subschema. */
const ONE = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const
/** Keywords whose value is a list of subschemas (`items` too, in its tuple form). */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const
/** Keywords whose value maps names to subschemas. */
const MAPS = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
] as const
/**
 * Left out of what ajv compiles: ids and anchors (every `$ref` is followed
 * already; two schemas with one `$id` made ajv refuse the document),
 * dynamic refs (not followed; their place accepts any value), and
 * annotations that check nothing.
 */
const DROPPED = new Set([
  '$id',
  'id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$dynamicRef',
  '$recursiveRef',
  '$ref',
  '$comment',
  'example',
  'examples',
  'description',
  'title',
  'discriminator',
  'xml',
  'externalDocs',
  'nullable',
])

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** What compiling a document's schemas noticed: told once at start, unless quiet. */
export interface SchemaNotices {
  /** Formats the validator does not know: their strings are not checked. */
  unknownFormats: Set<string>
  /** Patterns RE2 cannot run in linear time (backreferences, lookaround, too large): not checked. */
  uncheckedPatterns: Set<string>
  /** Paths no request can reach (`/files/{id}#add_shared_link`: a fragment is never sent): left out. */
  unreachablePaths?: Set<string>
}

/**
 * One ajv instance per document (draft 2020-12 for OpenAPI 3.1, draft 7 with
 * 3.0's `nullable` and boolean exclusive bounds converted), with ajv-formats
 * and OpenAPI's own formats. A schema reached twice (a `$ref`d component, a
 * YAML alias, a recursive schema) is given to ajv once, by an id of its own,
 * and referred to: a cycle stays a cycle and each is compiled once.
 * `pattern`s run on RE2 (linear time, ECMA-262 syntax with or without `u`).
 * `compile` keeps each validator; each schema is compiled once, on its first check
 * (a schema that cannot be compiled throws then: a 500 for that request).
 *
 * @example
 * const compile = createSchemaCompiler('3.1')
 * const check = compile({ type: 'integer' })
 * check(5) // true
 */
export interface SchemaCompiler {
  (schema: JsonSchema): SchemaCheck
  /**
   * Notes every format the validator does not know and every pattern it
   * cannot run, in all the schemas below `root`, at start (schemas compile
   * on first use).
   */
  notice(root: object): void
}

/** What a check answers for a schema the validator cannot finish (it includes itself). */
const ENDLESS: ErrorObject = {
  instancePath: '',
  schemaPath: '#',
  keyword: '$ref',
  params: {},
  message: 'cannot be checked: the schema includes itself without end',
}

export const createSchemaCompiler = (
  dialect: '3.0' | '3.1',
  notices: SchemaNotices = { unknownFormats: new Set(), uncheckedPatterns: new Set() },
): SchemaCompiler => {
  const testers = new Map<string, { test(text: string): boolean }>()
  const tester = (pattern: string): { test(text: string): boolean } => {
    const known = testers.get(pattern)
    if (known !== undefined) return known
    // ajv keys a compiled pattern by its RegExp's toString(): each tester prints its own
    // pattern, or every pattern after the first would run as the first one (decision 0066).
    const printed = (): string => `/${pattern}/`
    let made: { test(text: string): boolean; toString(): string } | undefined
    try {
      const re2 = RE2JS.compile(RE2JS.translateRegExp(pattern))
      if (re2.programSize() <= MAX_PATTERN_PROGRAM)
        made = { test: (text) => re2.test(text), toString: printed }
    } catch {}
    if (made === undefined) {
      notices.uncheckedPatterns.add(pattern)
      made = { test: () => true, toString: printed }
    }
    testers.set(pattern, made)
    return made
  }
  const regExp = Object.assign((pattern: string) => tester(pattern), {
    code: 'unused: the document’s patterns run on RE2 (decision 0058)',
  })
  const warn = (...args: unknown[]): void => {
    const text = args.map(String).join(' ')
    const format = /unknown format "([^"]*)" ignored/.exec(text)?.[1]
    if (format !== undefined) notices.unknownFormats.add(format)
  }
  const options = {
    strict: false,
    allErrors: true,
    validateSchema: false,
    unicodeRegExp: false,
    code: { regExp },
    logger: { log: () => {}, warn, error: warn },
  } as const
  const ajv = dialect === '3.1' ? new Ajv2020(options) : new Ajv(options)
  addFormats.default(ajv)
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT32.min && n <= INT32.max,
  })
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
  for (const name of ['float', 'double'])
    ajv.addFormat(name, { type: 'number', validate: () => true })
  for (const name of ['byte', 'binary', 'password']) ajv.addFormat(name, () => true)
  // uniqueItems in linear time: ajv compares every pair of objects (1e5 items took minutes).
  ajv.removeKeyword('uniqueItems')
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: function unique(this: unknown, on: boolean, data: unknown[]): boolean {
      if (!on) return true
      const seen = new Map<string, number>()
      for (const [index, item] of data.entries()) {
        const key = canonical(item)
        const first = seen.get(key)
        if (first !== undefined) {
          ;(unique as { errors?: unknown[] }).errors = [
            {
              keyword: 'uniqueItems',
              message: `must NOT have duplicate items (items ## ${first} and ${index} are identical)`,
              params: { i: index, j: first },
            },
          ]
          return false
        }
        seen.set(key, index)
      }
      return true
    },
  })

  // Schemas reached twice get an id and are added to ajv once (lazily: ajv compiles on first use).
  const named = new Map<JsonSchema, string>()
  const seen = new Set<JsonSchema>()
  const pending: JsonSchema[] = []
  const nameOf = (schema: JsonSchema): string => {
    let id = named.get(schema)
    if (id === undefined) {
      id = `urn:petstore-sandbox:schema:${named.size}`
      named.set(schema, id)
      pending.push(schema)
    }
    return id
  }
  const sub = (value: unknown, onStack: Set<JsonSchema>): unknown => {
    if (typeof value === 'boolean') return value
    if (!isObject(value)) return {}
    if (named.has(value) || seen.has(value) || onStack.has(value)) return { $ref: nameOf(value) }
    return body(value, onStack)
  }
  const body = (schema: JsonSchema, onStack: Set<JsonSchema>): JsonSchema => {
    seen.add(schema)
    onStack.add(schema)
    // Built from entries: a property named `__proto__` stays an own key (an assignment would set the prototype).
    const out: JsonSchema = Object.fromEntries(
      Object.entries(schema).flatMap(([key, value]): [string, unknown][] => {
        if (DROPPED.has(key) || key.startsWith('x-')) return []
        if ((ONE as readonly string[]).includes(key)) return [[key, sub(value, onStack)]]
        if (key === 'items')
          return [
            [key, Array.isArray(value) ? value.map((v) => sub(v, onStack)) : sub(value, onStack)],
          ]
        if ((LISTS as readonly string[]).includes(key))
          return [[key, Array.isArray(value) ? value.map((v) => sub(v, onStack)) : []]]
        if ((MAPS as readonly string[]).includes(key))
          return [
            [
              key,
              isObject(value)
                ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sub(v, onStack)]))
                : {},
            ],
          ]
        if (key === 'dependencies' && isObject(value))
          return [
            [
              key,
              Object.fromEntries(
                Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v : sub(v, onStack)]),
              ),
            ],
          ]
        return [[key, value]]
      }),
    )
    onStack.delete(schema)
    return dialect === '3.0' ? fromOpenApi30(schema, out) : out
  }
  const flush = (): void => {
    while (pending.length > 0) {
      const schema = pending.shift() as JsonSchema
      ajv.addSchema(body(schema, new Set()), named.get(schema))
    }
  }

  const compiled = new WeakMap<JsonSchema, SchemaCheck>()
  const compileNow = (schema: JsonSchema): ValidateFunction => {
    const root: JsonSchema =
      named.has(schema) || seen.has(schema) ? { $ref: nameOf(schema) } : body(schema, new Set())
    flush()
    return ajv.compile(root)
  }
  const compile = (schema: JsonSchema): SchemaCheck => {
    const known = compiled.get(schema)
    if (known !== undefined) return known
    // Compiled on first use: a big document (GitHub's 1,000 operations) starts without
    // generating code for schemas no request reaches.
    let validate: ValidateFunction | undefined
    const check: SchemaCheck = (value) => {
      if (validate === undefined) {
        try {
          validate = compileNow(schema)
        } catch (error) {
          throw new Error(
            `Failed to compile a schema of the OpenAPI document: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
          )
        }
      }
      try {
        return validate(value) ? true : (validate.errors ?? [])
      } catch (error) {
        // A schema that is its own part with no data between (`allOf: [itself]`) recurses
        // without end in the validator: no value can be shown valid by it.
        if (!(error instanceof RangeError)) throw error
        return [ENDLESS]
      }
    }
    compiled.set(schema, check)
    return check
  }
  const notice = (root: object): void => {
    const visited = new Set<object>()
    const stack: object[] = [root]
    while (stack.length > 0) {
      const value = stack.pop() as Record<string, unknown>
      if (visited.has(value)) continue
      visited.add(value)
      if (typeof value.pattern === 'string') tester(value.pattern)
      if (typeof value.format === 'string' && !Object.hasOwn(ajv.formats, value.format))
        notices.unknownFormats.add(value.format)
      for (const child of Object.values(value))
        if (typeof child === 'object' && child !== null) stack.push(child)
    }
  }
  return Object.assign(compile, { notice })
}

/** OpenAPI 3.0's own keywords as JSON Schema: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`. */
const fromOpenApi30 = (source: JsonSchema, out: JsonSchema): JsonSchema => {
  if (source.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    else if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
  }
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[bound] === true && typeof out[limit] === 'number') {
      out[bound] = out[limit]
      delete out[limit]
    } else if (typeof out[bound] === 'boolean') delete out[bound]
  }
  return out
}

/** A JSON value as text with object keys sorted: equal values (deep equality) give equal text. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (isObject(value))
    return `{${Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'undefined'
}
