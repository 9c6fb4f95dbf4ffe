import type { SimpleFaker as Faker } from '@faker-js/faker'
import randexpModule from 'randexp'
import type { SchemaCheck } from './compile-schemas.js'
import type { JsonSchema } from './openapi-document.js'

/** What the generator may use besides the seeded faker. */
export interface GenerateOptions {
  /** The property's name: a hint at realistic text (`email`, `name`). */
  name?: string | undefined
  /** Whether a schema's own `example`/`examples` and `default` may be used (a document's may be invalid). */
  examples?: boolean | undefined
  /**
   * The document's compiled check of a schema: with it, `oneOf` answers a
   * value that matches exactly one branch. Without it, the first branch.
   */
  compile?: ((schema: JsonSchema) => SchemaCheck) | undefined
}

interface Context {
  faker: Faker
  examples: boolean
  compile: ((schema: JsonSchema) => SchemaCheck) | undefined
  /** Values this answer may still hold (MAX_VALUES at the start): wide and deep schemas end. */
  remaining: number
  /** Calls of generate under way: a choice that is itself (`oneOf: [itself]`) ends. */
  nesting: number
}

// randexp is CommonJS: Node and bundlers give its class as the default import, its types as `.default`.
const RandExp = ((randexpModule as unknown as { default?: unknown }).default ??
  randexpModule) as unknown as typeof randexpModule.default
type RandExp = InstanceType<typeof RandExp>

/** Past this depth only what is required is filled in (recursive schemas end). */
const OPTIONAL_DEPTH = 6
/** Past this depth nothing more is nested (a schema that requires itself forever). */
const HARD_DEPTH = 24
/**
 * How many values one answer holds at most, and how deep choices (`allOf`,
 * `oneOf`, `anyOf`) may nest without a level of data between them: a
 * recursive schema whose required parts multiply (a tree that requires two
 * children) gets empty objects and arrays past the budget (decision 0058).
 */
const MAX_VALUES = 20_000
const MAX_NESTING = 4 * HARD_DEPTH
/** The longest run a pattern's `*` or `+` makes, unless a minimum length asks for more. */
const PATTERN_REPEAT = 8

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined

const has = (schema: JsonSchema, key: string): boolean =>
  (Object.hasOwn(schema, key) ? schema[key] : undefined) !== undefined

/** Sets an own key, even one named `__proto__` (an assignment would set the prototype). */
const setOwn = (target: object, key: string, value: unknown): void => {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  })
}

/** The schema's own example, when it gives one (3.1 `examples` first). */
const exampleOf = (schema: JsonSchema): { value: unknown } | undefined => {
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    return { value: schema.examples[0] }
  if (schema.example !== undefined) return { value: schema.example }
  return undefined
}

const STRING_KEYWORDS = ['pattern', 'minLength', 'maxLength', 'format']
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double'])

/** The type a value is made as: the schema's (never `null` when another is allowed), else the one its keywords imply. */
const typeOf = (schema: JsonSchema): string | undefined => {
  const type = schema.type
  if (typeof type === 'string') return type
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null') as string[]
    return types[0] ?? (type.includes('null') ? 'null' : undefined)
  }
  if (
    isObject(schema.properties) ||
    Array.isArray(schema.required) ||
    isObject(schema.additionalProperties) ||
    has(schema, 'minProperties')
  )
    return 'object'
  if (has(schema, 'items') || has(schema, 'prefixItems') || has(schema, 'minItems')) return 'array'
  if (typeof schema.format === 'string' && NUMBER_FORMATS.has(schema.format))
    return schema.format.startsWith('int') ? 'integer' : 'number'
  if (STRING_KEYWORDS.some((k) => has(schema, k))) return 'string'
  if (NUMBER_KEYWORDS.some((k) => has(schema, k))) return 'number'
  return undefined
}

const lowest = (a: unknown, b: unknown): number | undefined => {
  const x = num(a)
  const y = num(b)
  if (x === undefined) return y
  if (y === undefined) return x
  return Math.min(x, y)
}
const highest = (a: unknown, b: unknown): number | undefined => {
  const x = num(a)
  const y = num(b)
  if (x === undefined) return y
  if (y === undefined) return x
  return Math.max(x, y)
}

/**
 * The parts of an `allOf` as one schema: properties merged (a property two
 * parts describe is the `allOf` of both), `required` joined, bounds
 * narrowed, `enum`s intersected, types intersected. What cannot be merged
 * (two patterns) keeps the first part's; the answer is checked after.
 */
export const mergeAllOf = (schema: JsonSchema, level = 0): JsonSchema => {
  const parts = [
    { ...schema, allOf: undefined },
    ...(Array.isArray(schema.allOf) ? schema.allOf : []).filter(isObject),
  ].map((part) =>
    // An allOf that includes itself (a $ref cycle) is merged to a bounded depth.
    Array.isArray(part.allOf) && level < HARD_DEPTH ? mergeAllOf(part, level + 1) : part,
  )
  const merged: JsonSchema = {}
  const properties: Record<string, JsonSchema> = {}
  const required = new Set<string>()
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined || key === 'allOf') continue
      const mine = Object.hasOwn(merged, key) ? merged[key] : undefined
      switch (key) {
        case 'properties':
          if (!isObject(value)) break
          for (const [name, sub] of Object.entries(value)) {
            if (!isObject(sub)) continue
            const before = Object.hasOwn(properties, name) ? properties[name] : undefined
            setOwn(
              properties,
              name,
              before === undefined || level >= HARD_DEPTH
                ? sub
                : mergeAllOf({ allOf: [before, sub] }, level + 1),
            )
          }
          break
        case 'required':
          if (Array.isArray(value)) for (const r of value) required.add(String(r))
          break
        case 'minimum':
        case 'minLength':
        case 'minItems':
        case 'minProperties':
        case 'exclusiveMinimum':
          merged[key] = typeof value === 'number' ? highest(mine, value) : (mine ?? value)
          break
        case 'maximum':
        case 'maxLength':
        case 'maxItems':
        case 'maxProperties':
        case 'exclusiveMaximum':
          merged[key] = typeof value === 'number' ? lowest(mine, value) : (mine ?? value)
          break
        case 'enum':
          merged[key] = Array.isArray(mine)
            ? mine.filter((m) =>
                (value as unknown[]).some((v) => JSON.stringify(v) === JSON.stringify(m)),
              )
            : value
          break
        case 'type': {
          const list = (t: unknown): string[] =>
            Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : []
          if (mine === undefined) merged.type = value
          else {
            const both = list(mine).filter(
              (t) => list(value).includes(t) || (t === 'integer' && list(value).includes('number')),
            )
            const fromValue = list(value).filter(
              (t) => t === 'integer' && list(mine).includes('number'),
            )
            const all = [...new Set([...both, ...fromValue])]
            // No type both allow: only null when both allow it (3.0's nullable, 3.1's 'null').
            const nullable = (t: unknown, n: unknown) => n === true || list(t).includes('null')
            const onlyNull =
              all.length === 0 &&
              parts.every((p) => p.type === undefined || nullable(p.type, p.nullable))
            merged.type = onlyNull
              ? 'null'
              : all.length === 1
                ? all[0]
                : all.length > 0
                  ? all
                  : mine
          }
          break
        }
        case 'additionalProperties':
          // A closed part closes the whole (ajv checks each part alone: it would refuse others' fields anyway).
          merged[key] = mine === false ? false : value
          break
        default:
          if (mine === undefined) setOwn(merged, key, value)
      }
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties
  if (required.size > 0) merged.required = [...required]
  return merged
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

const hex = (faker: Faker, length: number): string =>
  faker.string.hexadecimal({ length, casing: 'lower', prefix: '' })

/** A string of a format ajv-formats checks (and OpenAPI's own), or undefined for a format it does not know. */
const formatted = (faker: Faker, format: string): string | undefined => {
  const instant = () =>
    faker.date.between({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }).toISOString()
  switch (format) {
    case 'date-time':
    case 'iso-date-time':
      return instant()
    case 'date':
      return instant().slice(0, 10)
    case 'time':
    case 'iso-time':
      return `${instant().slice(11, 19)}Z`
    case 'duration':
      return `P${faker.number.int({ min: 1, max: 30 })}DT${faker.number.int(23)}H`
    case 'email':
    case 'idn-email':
      return `${word(faker)}.${faker.number.int(999)}@example.test`
    case 'hostname':
    case 'idn-hostname':
      return `${word(faker)}.example.test`
    case 'uuid':
      return faker.string.uuid()
    case 'uri':
    case 'url':
    case 'iri':
      return `https://example.test/${word(faker)}`
    case 'uri-reference':
    case 'iri-reference':
      return `/${word(faker)}/${faker.number.int({ min: 1, max: 999 })}`
    case 'uri-template':
      return `https://example.test/${word(faker)}/{id}`
    case 'ipv4':
      return `10.${faker.number.int(255)}.${faker.number.int(255)}.${faker.number.int({ min: 1, max: 254 })}`
    case 'ipv6':
      return `fd00::${hex(faker, 4)}:${hex(faker, 4)}`
    case 'json-pointer':
      return `/${word(faker)}/${faker.number.int(9)}`
    case 'relative-json-pointer':
      return `${faker.number.int(3)}/${word(faker)}`
    case 'regex':
      return `^${word(faker)}[0-9]+$`
    case 'byte':
      return btoa(words(faker, 2))
    case 'binary':
    case 'password':
      return faker.string.alphanumeric(12)
    default:
      return undefined
  }
}

const compilePattern = (pattern: string): RegExp | undefined => {
  try {
    return new RegExp(pattern, 'u')
  } catch {
    try {
      return new RegExp(pattern)
    } catch {
      return undefined
    }
  }
}

/** A string matching `pattern` within the lengths, drawn by randexp on the seeded faker; undefined when none is found. */
const patterned = (faker: Faker, pattern: string, min: number, max: number): string | undefined => {
  const test = compilePattern(pattern)
  if (test === undefined) return undefined
  let source: RandExp
  try {
    source = new RandExp(pattern)
  } catch {
    return undefined // a pattern randexp cannot read (a Unicode property escape)
  }
  source.randInt = (a: number, b: number) => faker.number.int({ min: a, max: Math.max(a, b) })
  source.max = Math.max(PATTERN_REPEAT, Math.min(min, 10_000))
  for (let i = 0; i < 24; i += 1) {
    let text: string
    try {
      text = source.gen()
    } catch {
      return undefined
    }
    if (text.length > max) {
      source.max = Math.max(1, Math.floor(source.max / 2))
      continue
    }
    // An unanchored pattern matches inside a longer string: pad up to the minimum.
    while (text.length < min) text += faker.string.alphanumeric(1)
    if (test.test(text) && text.length <= max) return text
    if (text.length < min) source.max = Math.min(source.max * 2, 10_000)
  }
  return undefined
}

/**
 * Valid base64 of seeded bytes whose length is within `min` and `max` (a
 * multiple of 4, padded as needed); undefined when no such length exists.
 */
const base64Within = (faker: Faker, min: number, max: number): string | undefined => {
  const length = Math.max(4, Math.ceil(Math.max(min, Math.min(16, max)) / 4) * 4)
  if (length > max) return min === 0 ? '' : undefined
  // Up to 3 bytes per 4 characters; one or two bytes fewer leave `=` padding.
  const bytes = Uint8Array.from({ length: (length / 4) * 3 }, () => faker.number.int(255))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** The number of UTF-16 code points in a string, as JSON Schema counts length. */
const lengthOf = (text: string): number => [...text].length

const stringFor = (faker: Faker, schema: JsonSchema, name: string): string => {
  const min = num(schema.minLength) ?? 0
  const format = typeof schema.format === 'string' ? schema.format : undefined
  // A formatted string (an email, a date) is never cut short unless the schema says so.
  const max =
    num(schema.maxLength) ??
    (format !== undefined || typeof schema.pattern === 'string'
      ? Number.POSITIVE_INFINITY
      : Math.max(min, 24))
  if (typeof schema.pattern === 'string') {
    const fromFormat = format === undefined ? undefined : formatted(faker, format)
    if (
      fromFormat !== undefined &&
      compilePattern(schema.pattern)?.test(fromFormat) === true &&
      lengthOf(fromFormat) >= min &&
      lengthOf(fromFormat) <= max
    )
      return fromFormat
    const text = patterned(faker, schema.pattern, min, max)
    if (text !== undefined) return text
  }
  // base64 (`byte`) and binary strings within their lengths (decision 0067).
  if (format === 'byte' && (schema.minLength !== undefined || schema.maxLength !== undefined))
    return base64Within(faker, min, max) ?? words(faker, 1)
  if (format === 'binary' && (schema.minLength !== undefined || schema.maxLength !== undefined))
    return faker.string.alphanumeric(Math.min(Math.max(min, Math.min(12, max)), max))
  const fromFormat = format === undefined ? undefined : formatted(faker, format)
  if (fromFormat !== undefined) return fromFormat
  let text = byName(faker, name) ?? words(faker, faker.number.int({ min: 1, max: 3 }))
  if (text.length > max) text = text.slice(0, max).trimEnd()
  while (lengthOf(text) < min) text += faker.string.alpha({ length: 1, casing: 'lower' })
  return text
}

/** Whether `value` is a multiple of `step` as ajv decides it (no precision option). */
const isMultiple = (value: number, step: number): boolean => {
  const ratio = value / step
  return Number.isFinite(ratio) && ratio === Math.trunc(ratio)
}

const numberFor = (faker: Faker, schema: JsonSchema, integer: boolean): number => {
  const format = schema.format
  const exclusiveMin =
    typeof schema.exclusiveMinimum === 'number'
      ? schema.exclusiveMinimum
      : schema.exclusiveMinimum === true
        ? num(schema.minimum)
        : undefined
  const exclusiveMax =
    typeof schema.exclusiveMaximum === 'number'
      ? schema.exclusiveMaximum
      : schema.exclusiveMaximum === true
        ? num(schema.maximum)
        : undefined
  const step = integer ? 1 : 0.01
  let min = highest(
    schema.exclusiveMinimum === true ? undefined : num(schema.minimum),
    exclusiveMin === undefined ? undefined : exclusiveMin + step,
  )
  let max = lowest(
    schema.exclusiveMaximum === true ? undefined : num(schema.maximum),
    exclusiveMax === undefined ? undefined : exclusiveMax - step,
  )
  if (format === 'int32') {
    min = highest(min, -2_147_483_648)
    max = lowest(max, 2_147_483_647)
  }
  min ??= max === undefined ? 1 : Math.min(1, max)
  max ??= min + (integer ? 999 : 999.99)
  if (integer) {
    min = Math.ceil(min)
    max = Math.floor(max)
  }
  const multipleOf = num(schema.multipleOf)
  if (multipleOf !== undefined && multipleOf > 0) {
    const lo = Math.ceil(min / multipleOf)
    const hi = Math.max(lo, Math.floor(max / multipleOf))
    const span = Math.min(hi, lo + 999)
    for (let i = 0; i < 16; i += 1) {
      const value = faker.number.int({ min: lo, max: span }) * multipleOf
      const rounded = Number(value.toPrecision(12))
      if (
        rounded >= min &&
        rounded <= max &&
        isMultiple(rounded, multipleOf) &&
        (!integer || Number.isInteger(rounded))
      )
        return rounded
    }
    // Whole multiples of a fractional step are the ones floating point keeps exact.
    for (let k = lo; k <= span; k += 1) {
      const rounded = Number((k * multipleOf).toPrecision(12))
      if (isMultiple(rounded, multipleOf) && (!integer || Number.isInteger(rounded))) return rounded
    }
    return lo * multipleOf
  }
  if (max < min) return min
  return integer
    ? faker.number.int({ min, max })
    : Math.min(max, Math.max(min, faker.number.float({ min, max, fractionDigits: 2 })))
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The branch of a `oneOf`/`anyOf` with the schema's own keywords (type, properties) laid over it. */
const withBranch = (schema: JsonSchema, branch: JsonSchema): JsonSchema => {
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _d, ...rest } = schema
  return Object.keys(rest).length === 0 ? branch : mergeAllOf({ allOf: [rest, branch] })
}

const typeName = (schema: JsonSchema): string | undefined =>
  typeof schema.type === 'string' ? (schema.type === 'integer' ? 'number' : schema.type) : undefined

/** The values a branch allows for a property, when it names them (`const`, `enum`) and requires it. */
const tagsOf = (branch: JsonSchema, name: string): string[] | undefined => {
  const properties = isObject(branch.properties) ? branch.properties : {}
  const sub = Object.hasOwn(properties, name) ? properties[name] : undefined
  const required = Array.isArray(branch.required) && branch.required.includes(name)
  if (!isObject(sub) || !required) return undefined
  if (sub.const !== undefined) return [JSON.stringify(sub.const)]
  return Array.isArray(sub.enum) ? sub.enum.map((v) => JSON.stringify(v)) : undefined
}

/**
 * Whether no value can match two of the branches: each of another type
 * (`string`, `number`, `object`…), or each object tagged by one required
 * property with values of its own (a discriminator).
 */
const disjoint = (branches: JsonSchema[]): boolean => {
  const types = branches.map(typeName)
  if (types.every((t) => t !== undefined) && new Set(types).size === types.length) return true
  const first = branches[0]
  if (first === undefined || !isObject(first.properties)) return false
  return Object.keys(first.properties).some((name) => {
    const seen = new Set<string>()
    for (const branch of branches) {
      const tags = tagsOf(branch, name)
      if (tags === undefined || tags.some((t) => seen.has(t))) return false
      for (const t of tags) seen.add(t)
    }
    return true
  })
}

/** A value of another type than the schema's (for a property another branch describes): undefined when any type is allowed. */
const wrongTypeFor = (schema: JsonSchema): unknown => {
  const type = typeOf(schema)
  if (type === undefined || Array.isArray(schema.type)) return undefined
  return type === 'string' ? 0 : 'x'
}

/**
 * An object that matches its own branch of a `oneOf` and others too (open
 * schemas overlap), set apart: a property only another branch describes is
 * added with a type that branch refuses, while its own branch allows any
 * other property. Undefined when that does not make it match exactly one.
 */
const setApart = (
  value: unknown,
  own: JsonSchema,
  branches: JsonSchema[],
  checks: (SchemaCheck | undefined)[],
  index: number,
): unknown => {
  if (!isObject(value) || own.additionalProperties === false) return undefined
  const ownProperties = isObject(own.properties) ? own.properties : {}
  const out: Record<string, unknown> = { ...value }
  for (const [j, other] of branches.entries()) {
    if (j === index || checks[j]?.(out) !== true) continue
    const properties = isObject(other.properties) ? other.properties : {}
    for (const [name, sub] of Object.entries(properties)) {
      if (Object.hasOwn(out, name) || Object.hasOwn(ownProperties, name) || !isObject(sub)) continue
      const wrong = wrongTypeFor(sub)
      if (wrong === undefined) continue
      setOwn(out, name, wrong)
      break
    }
  }
  return checks.filter((check) => check?.(out) === true).length === 1 &&
    checks[index]?.(out) === true
    ? out
    : undefined
}

const generate = (ctx: Context, schema: JsonSchema, name: string, depth: number): unknown => {
  if (ctx.nesting >= MAX_NESTING) return null
  ctx.nesting += 1
  ctx.remaining -= 1
  try {
    return generateOne(ctx, schema, name, depth)
  } finally {
    ctx.nesting -= 1
  }
}

const generateOne = (ctx: Context, schema: JsonSchema, name: string, depth: number): unknown => {
  const { faker } = ctx
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.filter((v) => v !== null)
    return faker.helpers.arrayElement(values.length > 0 ? values : schema.enum)
  }
  if (ctx.examples) {
    const example = exampleOf(schema)
    if (example !== undefined) return example.value
  }
  if (Array.isArray(schema.allOf)) return generate(ctx, mergeAllOf(schema), name, depth)
  if (Array.isArray(schema.oneOf)) {
    const branches = schema.oneOf.filter(isObject)
    const { compile } = ctx
    // Branches that cannot overlap need no check (compiling each branch costs at start).
    const checks =
      compile === undefined || disjoint(branches) ? undefined : branches.map((b) => compile(b))
    let first: unknown
    for (const [index, branch] of branches.entries()) {
      const value = generate(ctx, withBranch(schema, branch), name, depth)
      if (index === 0) first = value
      if (checks === undefined) return value
      const matching = checks.filter((check) => check?.(value) === true).length
      if (matching === 1) return value
      const apart = setApart(value, withBranch(schema, branch), branches, checks, index)
      if (apart !== undefined) return apart
    }
    if (branches.length > 0) return first
  }
  if (Array.isArray(schema.anyOf)) {
    const branch = schema.anyOf.find(isObject)
    if (branch !== undefined) return generate(ctx, withBranch(schema, branch), name, depth)
  }
  if (ctx.examples && schema.default !== undefined) return schema.default
  const type = typeOf(schema)
  if (ctx.remaining <= 0 && (type === 'object' || type === 'array'))
    return type === 'object' ? {} : []
  switch (type) {
    case 'object':
      return objectFor(ctx, schema, depth)
    case 'array':
      return arrayFor(ctx, schema, name, depth)
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

const objectFor = (ctx: Context, schema: JsonSchema, depth: number): Record<string, unknown> => {
  const out = new Map<string, unknown>()
  const properties = isObject(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).map(String) : []
  const extra = schema.additionalProperties
  for (const [key, sub] of Object.entries(properties)) {
    if (sub === false) continue
    const isRequired = required.includes(key)
    if (!isRequired && (depth >= OPTIONAL_DEPTH || (depth > 1 && sub === undefined))) continue
    if (depth >= HARD_DEPTH) continue
    out.set(key, generate(ctx, isObject(sub) ? sub : {}, key, depth + 1))
  }
  // Required fields the properties do not describe: from additionalProperties, else text.
  for (const key of required) {
    if (out.has(key)) continue
    out.set(key, generate(ctx, isObject(extra) ? extra : {}, key, depth + 1))
  }
  const minProperties = num(schema.minProperties) ?? 0
  for (let i = 1; out.size < minProperties && i < minProperties + 50 && extra !== false; i += 1) {
    const key = `${ctx.faker.helpers.arrayElement(WORDS)}_${i}`
    if (!out.has(key)) out.set(key, generate(ctx, isObject(extra) ? extra : {}, key, depth + 1))
  }
  const maxProperties = num(schema.maxProperties)
  if (maxProperties !== undefined && out.size > maxProperties)
    for (const key of [...out.keys()])
      if (out.size > maxProperties && !required.includes(key)) out.delete(key)
  return Object.fromEntries(out)
}

const arrayFor = (ctx: Context, schema: JsonSchema, name: string, depth: number): unknown[] => {
  const { faker } = ctx
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : []
  // Draft 7's tuple form (`items` as an array) is read as 2020's prefixItems.
  const tuple = Array.isArray(schema.items) ? schema.items : prefix
  const itemSchema: JsonSchema | false = Array.isArray(schema.items)
    ? isObject(schema.additionalItems) || schema.additionalItems === undefined
      ? ((schema.additionalItems as JsonSchema | undefined) ?? {})
      : false
    : schema.items === false
      ? false
      : isObject(schema.items)
        ? schema.items
        : {}
  const min = Math.max(num(schema.minItems) ?? (depth >= OPTIONAL_DEPTH ? 0 : 1), 0)
  const maxItems = num(schema.maxItems)
  const limit = itemSchema === false ? tuple.length : Number.POSITIVE_INFINITY
  const max = Math.min(limit, Math.max(min, Math.min(maxItems ?? 3, min + 2)))
  const count = Math.min(
    max,
    depth >= OPTIONAL_DEPTH
      ? Math.max(min, Math.min(tuple.length, max))
      : faker.number.int({ min: Math.min(min, max), max }),
  )
  const values: unknown[] = []
  const contains = isObject(schema.contains) ? schema.contains : undefined
  if (contains !== undefined && depth < HARD_DEPTH && tuple.length === 0)
    values.push(
      generate(
        ctx,
        mergeAllOf({ allOf: [isObject(itemSchema) ? itemSchema : {}, contains] }),
        name,
        depth + 1,
      ),
    )
  for (let i = 0; values.length < count && i < count * 6 + 6 && depth < HARD_DEPTH; i += 1) {
    const at = values.length
    const sub = at < tuple.length ? tuple[at] : itemSchema
    if (!isObject(sub)) break
    const value = generate(ctx, sub, name, depth + 1)
    if (schema.uniqueItems === true && values.some((v) => sameJson(v, value))) continue
    values.push(value)
  }
  return values
}

/**
 * A value valid against a JSON Schema (the document's dereferenced schemas),
 * drawn from a seeded faker: the same faker state gives the same value. An
 * example in the schema wins (unless `examples: false`); `const`, `enum`,
 * `pattern` (by randexp), formats, lengths, bounds, `multipleOf`, item
 * counts, `uniqueItems`, `required`, `additionalProperties`, `allOf`
 * (merged) and `oneOf` (one branch exactly, given `compile`) are honoured;
 * every required property and every other known property is filled
 * (optional ones to a depth of 6, so recursive schemas end).
 *
 * @example
 * generateFromSchema(faker, { type: 'object', properties: { id: { type: 'integer' } } })
 */
export const generateFromSchema = (
  faker: Faker,
  schema: JsonSchema,
  options: GenerateOptions = {},
): unknown =>
  generate(
    {
      faker,
      examples: options.examples ?? true,
      compile: options.compile,
      remaining: MAX_VALUES,
      nesting: 0,
    },
    schema,
    options.name ?? '',
    0,
  )

/**
 * A value valid by `check`: generated with the schema's examples, and when
 * that is not valid (a document's example that breaks its own schema),
 * generated again without them, up to four draws. `valid` says whether the
 * value it answers passed.
 *
 * @example
 * const { value, valid } = generateValid(faker, schema, compile(schema), { compile })
 */
export const generateValid = (
  faker: Faker,
  schema: JsonSchema,
  check: SchemaCheck,
  options: GenerateOptions = {},
): { value: unknown; valid: boolean } => {
  let value = generateFromSchema(faker, schema, options)
  if (check(value) === true) return { value, valid: true }
  for (let i = 0; i < 4; i += 1) {
    value = generateFromSchema(faker, schema, { ...options, examples: false })
    if (check(value) === true) return { value, valid: true }
  }
  return { value, valid: false }
}
