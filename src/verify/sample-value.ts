type Schema = Readonly<Record<string, unknown>>

const FORMATS: Readonly<Record<string, string>> = {
  uuid: '00000000-0000-4000-8000-000000000001',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  email: 'verify@example.test',
  uri: 'https://example.test/',
}

const asSchema = (value: unknown): Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : {}

const typeOf = (schema: Schema): string | undefined => {
  const { type } = schema
  if (typeof type === 'string') return type
  // OpenAPI 3.1: ["string", "null"] takes the first that is not null.
  if (Array.isArray(type))
    return type.find((t): t is string => typeof t === 'string' && t !== 'null')
  if (schema.properties !== undefined) return 'object'
  return undefined
}

const numberOf = (schema: Schema, integer: boolean): number => {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined
  let value = min ?? (max !== undefined && max < 1 ? max : 1)
  if (typeof schema.exclusiveMinimum === 'number') value = schema.exclusiveMinimum + 1
  return integer ? Math.ceil(value) : value
}

/** The properties of a schema and of its `allOf` parts, and which are required. */
export const objectParts = (
  schema: Schema,
): { properties: Record<string, Schema>; required: string[] } => {
  const parts = Array.isArray(schema.allOf) ? schema.allOf.map(asSchema) : []
  const properties: Record<string, Schema> = {}
  const required = new Set<string>()
  for (const part of [...parts, schema]) {
    for (const [name, value] of Object.entries(asSchema(part.properties)))
      Object.defineProperty(properties, name, {
        value: asSchema(value),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    if (Array.isArray(part.required))
      for (const name of part.required) if (typeof name === 'string') required.add(name)
  }
  return { properties, required: [...required] }
}

/**
 * A small value a schema accepts, made without randomness (`verify`'s
 * parameters and bodies): its example, default, const or first enum value,
 * else the least value of its type (`1`, `"a"`, a uuid for `format: uuid`, an
 * object of its required properties). Not a generator: it aims at the
 * common schemas, and the target's answer says whether it was right.
 *
 * @example
 * sampleValue({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } })
 * // { name: 'a' }
 */
export const sampleValue = (schema: Schema, depth = 0): unknown => {
  if (schema.example !== undefined) return schema.example
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (schema.default !== undefined) return schema.default
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const choice = [schema.oneOf, schema.anyOf].find((c) => Array.isArray(c) && c.length > 0)
  if (Array.isArray(choice)) return sampleValue(asSchema(choice[0]), depth + 1)
  if (depth > 8) return null
  switch (typeOf(schema)) {
    case 'integer':
      return numberOf(schema, true)
    case 'number':
      return numberOf(schema, false)
    case 'boolean':
      return true
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0
      return Array.from({ length: min }, () => sampleValue(asSchema(schema.items), depth + 1))
    }
    case 'object': {
      const { properties, required } = objectParts(schema)
      return Object.fromEntries(
        required.map((name) => [
          name,
          sampleValue(
            (Object.hasOwn(properties, name) ? properties[name] : undefined) ?? {},
            depth + 1,
          ),
        ]),
      )
    }
    case 'string': {
      const format = typeof schema.format === 'string' ? schema.format : undefined
      const sample =
        format !== undefined && Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined
      if (sample !== undefined) return sample
      const min = typeof schema.minLength === 'number' ? schema.minLength : 1
      return 'a'.repeat(Math.max(1, min))
    }
    default:
      if (Array.isArray(schema.allOf)) return sampleValue(objectSchema(schema), depth + 1)
      return 'a'
  }
}

const objectSchema = (schema: Schema): Schema => ({
  ...schema,
  type: 'object',
  allOf: undefined,
  ...objectParts(schema),
})

/**
 * A value of the wrong type for a schema: a number for a string, a string
 * for a number, an integer, a boolean, an object or an array.
 *
 * @example
 * wrongValue({ type: 'string' }) // 42
 */
export const wrongValue = (schema: Schema): unknown => {
  const type = typeOf(schema)
  if (type === 'string') return 42
  if (type === undefined) return undefined
  return 'petstore-sandbox-verify'
}
