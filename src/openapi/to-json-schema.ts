import type { JsonSchema } from './openapi-document.js'

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const
const SUBSCHEMAS = [
  'items',
  'not',
  'additionalProperties',
  'contains',
  'if',
  'then',
  'else',
] as const

/**
 * An OpenAPI 3.0 Schema Object as JSON Schema (what ajv checks): `nullable`
 * becomes a `null` type, the boolean `exclusiveMinimum`/`exclusiveMaximum` of
 * draft 4 become numbers. A 3.1 schema is JSON Schema 2020-12 already and is
 * returned as it is. A new object: the document is left unchanged (it is also served).
 *
 * @example
 * toJsonSchema({ type: 'string', nullable: true }, '3.0') // { type: ['string', 'null'] }
 */
export const toJsonSchema = (schema: JsonSchema, dialect: '3.0' | '3.1'): JsonSchema => {
  if (dialect === '3.1') return schema
  const seen = new Map<JsonSchema, JsonSchema>()
  const convert = (input: JsonSchema): JsonSchema => {
    const done = seen.get(input)
    if (done !== undefined) return done
    const out: JsonSchema = { ...input }
    seen.set(input, out)
    if (out.nullable === true) {
      if (typeof out.type === 'string') out.type = [out.type, 'null']
      else if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
    }
    delete out.nullable
    for (const [bound, limit] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (out[bound] === true && typeof out[limit] === 'number') {
        out[bound] = out[limit]
        delete out[limit]
      } else if (typeof out[bound] === 'boolean') delete out[bound]
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = out[key]
      if (Array.isArray(list)) out[key] = list.map((s) => (isObject(s) ? convert(s) : s))
    }
    for (const key of SUBSCHEMAS) {
      const sub = out[key]
      if (isObject(sub)) out[key] = convert(sub)
    }
    const properties = out.properties
    if (isObject(properties))
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([name, s]) => [name, isObject(s) ? convert(s) : s]),
      )
    return out
  }
  return convert(schema)
}
