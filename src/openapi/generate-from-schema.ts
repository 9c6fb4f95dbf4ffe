import type { SimpleFaker as Faker } from '@faker-js/faker'
import type { JsonSchema } from './openapi-document.js'

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined

/** The schema's own example, when it gives one (3.1 `examples` first). */
const exampleOf = (schema: JsonSchema): { value: unknown } | undefined => {
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    return { value: schema.examples[0] }
  if (schema.example !== undefined) return { value: schema.example }
  return undefined
}

const typeOf = (schema: JsonSchema): string | undefined => {
  const type = schema.type
  if (typeof type === 'string') return type
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined
  if (isObject(schema.properties)) return 'object'
  if (schema.items !== undefined) return 'array'
  return undefined
}

// Plain words, no locale: faker's locales stay out of every bundle (the browser's start-up budget).
const WORDS = [
  'amber',
  'brisk',
  'cedar',
  'delta',
  'ember',
  'fable',
  'grove',
  'harbor',
  'indigo',
  'juniper',
  'kestrel',
  'lumen',
  'maple',
  'nimbus',
  'opal',
  'prairie',
  'quartz',
  'river',
  'sage',
  'tundra',
  'umber',
  'violet',
  'willow',
  'zephyr',
]
const word = (faker: Faker): string => faker.helpers.arrayElement(WORDS)
const words = (faker: Faker, count: number): string =>
  Array.from({ length: count }, () => word(faker)).join(' ')
const title = (text: string): string => text.replace(/(^|\s)\w/g, (c) => c.toUpperCase())

// A property's name hints at realistic data, as a person reading the answer expects.
const byName = (faker: Faker, name: string): string | undefined => {
  const key = name.toLowerCase()
  if (key === 'email') return `${word(faker)}.${faker.number.int(999)}@example.test`
  if (key === 'name' || key.endsWith('name')) return title(words(faker, 2))
  if (key === 'description' || key === 'summary')
    return `${title(words(faker, faker.number.int({ min: 4, max: 8 })))}.`
  if (key === 'city') return title(word(faker))
  if (key === 'phone') return `+1-555-${String(faker.number.int({ min: 1000, max: 9999 }))}`
  return undefined
}

/** A string matching the schema's `pattern`, when faker's generator reads it (a subset of regular expressions). */
const patterned = (faker: Faker, schema: JsonSchema): string | undefined => {
  if (typeof schema.pattern !== 'string') return undefined
  try {
    const source = schema.pattern.replace(/^\^/, '').replace(/\$$/, '')
    const pattern = new RegExp(schema.pattern, 'u')
    for (let i = 0; i < 5; i += 1) {
      const text = faker.helpers.fromRegExp(source)
      if (pattern.test(text)) return text
    }
  } catch {
    // A pattern faker cannot read: the plain string below, which may not match it.
  }
  return undefined
}

const stringFor = (faker: Faker, schema: JsonSchema, name: string): string => {
  const min = num(schema.minLength) ?? 0
  // A formatted string (an email, a date) is never cut short unless the schema says so.
  const max =
    num(schema.maxLength) ??
    (typeof schema.format === 'string' ? Number.POSITIVE_INFINITY : Math.max(min, 24))
  let text: string
  switch (schema.format) {
    case 'date-time':
      text = faker.date
        .between({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })
        .toISOString()
      break
    case 'date':
      text = faker.date
        .between({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })
        .toISOString()
        .slice(0, 10)
      break
    case 'email':
      text = `${word(faker)}.${faker.number.int(999)}@example.test`
      break
    case 'uuid':
      text = faker.string.uuid()
      break
    case 'uri':
    case 'url':
      text = `https://example.test/${word(faker)}`
      break
    case 'ipv4':
      text = `10.${faker.number.int(255)}.${faker.number.int(255)}.${faker.number.int({ min: 1, max: 254 })}`
      break
    default:
      text =
        patterned(faker, schema) ??
        byName(faker, name) ??
        words(faker, faker.number.int({ min: 1, max: 3 }))
  }
  if (typeof schema.pattern === 'string') return text
  if (typeof schema.format === 'string' && text.length <= max) return text
  if (text.length > max) text = text.slice(0, max).trimEnd()
  while (text.length < min) text += faker.string.alpha(1)
  return text
}

const numberFor = (faker: Faker, schema: JsonSchema, integer: boolean): number => {
  let min =
    num(schema.minimum) ??
    (typeof schema.exclusiveMinimum === 'number'
      ? schema.exclusiveMinimum + (integer ? 1 : 0.01)
      : undefined)
  let max =
    num(schema.maximum) ??
    (typeof schema.exclusiveMaximum === 'number'
      ? schema.exclusiveMaximum - (integer ? 1 : 0.01)
      : undefined)
  min ??= max === undefined ? 1 : Math.min(1, max)
  max ??= min + (integer ? 999 : 999.99)
  const multipleOf = num(schema.multipleOf)
  if (multipleOf !== undefined) {
    const lo = Math.ceil(min / multipleOf)
    const hi = Math.floor(max / multipleOf)
    return faker.number.int({ min: lo, max: Math.max(lo, hi) }) * multipleOf
  }
  return integer
    ? faker.number.int({ min: Math.ceil(min), max: Math.floor(max) })
    : faker.number.float({ min, max, fractionDigits: 2 })
}

/**
 * How deep a generated value nests at most, and how many values one answer
 * holds at most: a recursive schema (a tree, a thread) is generated to a
 * bounded depth, its optional parts left out past depth 6, and a schema
 * that demands more (required properties in a cycle) gets empty values there.
 */
const MAX_DEPTH = 32
const MAX_VALUES = 20_000
let remaining = MAX_VALUES

/**
 * A value valid against a JSON Schema (the document's dereferenced schemas),
 * drawn from a seeded faker: the same faker state gives the same value. An
 * example in the schema wins; `enum` and `const` are honoured; every required
 * property and every other known property is filled (optional ones too, so
 * an answer shows the whole shape).
 *
 * @example
 * generateFromSchema(faker, { type: 'object', properties: { id: { type: 'integer' } } })
 */
export const generateFromSchema = (
  faker: Faker,
  schema: JsonSchema,
  name = '',
  depth = 0,
): unknown => {
  if (depth === 0) remaining = MAX_VALUES
  remaining -= 1
  // A schema that is its own first choice (`oneOf: [itself, …]`) ends here.
  if (depth > 2 * MAX_DEPTH) return null
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.filter((v) => v !== null)
    return faker.helpers.arrayElement(values.length > 0 ? values : schema.enum)
  }
  const example = exampleOf(schema)
  if (example !== undefined) return example.value
  if (Array.isArray(schema.allOf)) {
    const merged: JsonSchema = { ...schema, allOf: undefined }
    const properties: JsonSchema = { ...(isObject(schema.properties) ? schema.properties : {}) }
    const required = new Set<string>(
      Array.isArray(schema.required) ? (schema.required as string[]) : [],
    )
    for (const part of schema.allOf) {
      if (!isObject(part)) continue
      Object.assign(merged, part, { properties })
      if (isObject(part.properties)) Object.assign(properties, part.properties)
      if (Array.isArray(part.required)) for (const r of part.required) required.add(String(r))
    }
    delete merged.allOf
    return generateFromSchema(
      faker,
      { ...merged, properties, required: [...required] },
      name,
      depth,
    )
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key]
    if (Array.isArray(options) && isObject(options[0]))
      return generateFromSchema(faker, options[0], name, depth + 1)
  }
  if (schema.default !== undefined) return schema.default
  const type = typeOf(schema)
  if (depth > MAX_DEPTH || remaining <= 0) {
    if (type === 'object') return {}
    if (type === 'array') return []
  }
  switch (type) {
    case 'object': {
      const out: [string, unknown][] = []
      const properties = isObject(schema.properties) ? schema.properties : {}
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
      for (const [key, sub] of Object.entries(properties)) {
        if (!isObject(sub)) continue
        if (depth > 6 && !required.includes(key)) continue
        out.push([key, generateFromSchema(faker, sub, key, depth + 1)])
      }
      return Object.fromEntries(out)
    }
    case 'array': {
      const items = isObject(schema.items) ? schema.items : {}
      const min = num(schema.minItems) ?? (depth > 6 ? 0 : 1)
      const max = Math.max(min, Math.min(num(schema.maxItems) ?? 3, min + 2))
      const count = depth > 6 ? min : faker.number.int({ min, max })
      const values: unknown[] = []
      for (let i = 0; i < count * 4 && values.length < count; i += 1) {
        const value = generateFromSchema(faker, items, name, depth + 1)
        if (
          schema.uniqueItems === true &&
          values.some((v) => JSON.stringify(v) === JSON.stringify(value))
        )
          continue
        values.push(value)
      }
      return values
    }
    case 'integer':
      return numberFor(faker, schema, true)
    case 'number':
      return numberFor(faker, schema, false)
    case 'boolean':
      return faker.datatype.boolean()
    case 'null':
      return null
    case 'string':
      return stringFor(faker, schema, name)
    default:
      return stringFor(faker, { type: 'string' }, name)
  }
}
