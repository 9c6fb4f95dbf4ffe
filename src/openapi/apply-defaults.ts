import type { JsonSchema } from './openapi-document.js'

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Past this depth no more defaults are applied (a recursive schema ends). */
const MAX_DEPTH = 32

/**
 * A copy of `value` with the schema's `default`s filled in where a property
 * is missing, as ajv's `useDefaults` does while it validates: the
 * `properties` of the schema and of its `allOf` parts, into nested objects
 * the value has, and the items of arrays it has. A property given (even as
 * `null`) is left as it is; a `oneOf`/`anyOf` branch's defaults are not
 * applied (ajv does not either: which branch is not known beforehand).
 *
 * @example
 * applyDefaults({ properties: { status: { default: 'placed' } } }, {}) // { status: 'placed' }
 */
export const applyDefaults = (schema: JsonSchema, value: unknown, depth = 0): unknown => {
  if (depth > MAX_DEPTH) return value
  if (Array.isArray(value)) {
    const items = schema.items
    return isObject(items) ? value.map((item) => applyDefaults(items, item, depth + 1)) : value
  }
  if (!isObject(value)) return value
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isObject) : [])]
  const out = new Map<string, unknown>(Object.entries(value))
  for (const part of parts) {
    if (part !== schema) {
      const inner = applyDefaults(part, Object.fromEntries(out), depth + 1)
      if (isObject(inner)) for (const [k, v] of Object.entries(inner)) out.set(k, v)
      continue
    }
    const properties = isObject(part.properties) ? part.properties : {}
    for (const [name, sub] of Object.entries(properties)) {
      if (!isObject(sub)) continue
      if (!out.has(name)) {
        if (sub.default !== undefined) out.set(name, structuredClone(sub.default))
        continue
      }
      out.set(name, applyDefaults(sub, out.get(name), depth + 1))
    }
  }
  return Object.fromEntries(out)
}
