import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SeedFaker } from '../../src/db/seed-faker.js'
import { createSchemaCompiler } from '../../src/openapi/compile-schemas.js'
import { generateFromSchema } from '../../src/openapi/generate-from-schema.js'
import type { JsonSchema } from '../../src/openapi/openapi-document.js'

// The judge: a plain ajv (draft 2020-12, strict about formats), set up here, not the project's.
const judge = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false })
addFormats.default(judge)
const problems = (schema: JsonSchema, value: unknown): string | undefined => {
  const validate = judge.compile(schema)
  return validate(value) ? undefined : judge.errorsText(validate.errors)
}

// Patterns taken from real documents (Slack, Twitter, 1Password, Stripe, GitHub, ISO codes).
const PATTERNS = [
  '^[CGD][A-Z0-9]{8,}$',
  '^([0-9]+)_([0-9]+)$',
  '^[a-z0-9]{26}$',
  '^[a-zA-Z0-9_]{1,15}$',
  '^[A-Z]{3}$',
  '^\\+?[1-9]\\d{1,14}$',
  '^[0-9a-f]{40}$',
  '^(cus|acct)_[A-Za-z0-9]{14,24}$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '[a-z]+',
  '^#[0-9A-Fa-f]{6}$',
  '^v\\d+\\.\\d+(\\.\\d+)?$',
  '^[^\\s@]+@[^\\s@]+$',
  '^[\\-\\:a-z]{3,8}$',
]
const FORMATS = [
  'date-time',
  'date',
  'time',
  'email',
  'hostname',
  'uuid',
  'uri',
  'uri-reference',
  'ipv4',
  'ipv6',
  'json-pointer',
  'byte',
  'duration',
]

const stringSchema = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.integer({ min: 0, max: 12 }),
      maxLength: fc.integer({ min: 12, max: 40 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('string'), pattern: fc.constantFrom(...PATTERNS) }),
  fc.record({ type: fc.constant('string'), format: fc.constantFrom(...FORMATS) }),
  fc.record({
    type: fc.constant('string'),
    enum: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }),
  }),
  fc.record({ const: fc.string({ maxLength: 6 }) }),
)

const numberSchema = fc
  .record(
    {
      type: fc.constantFrom('integer', 'number'),
      minimum: fc.integer({ min: -1000, max: 1000 }),
      span: fc.integer({ min: 0, max: 5000 }),
      exclusive: fc.boolean(),
      multipleOf: fc.constantFrom(2, 5, 0.5, 0.1, 0.01, 3),
    },
    { requiredKeys: ['type', 'minimum', 'span'] },
  )
  .map(({ type, minimum, span, exclusive, multipleOf }) => {
    const schema: JsonSchema = { type }
    if (exclusive === true) {
      schema.exclusiveMinimum = minimum
      schema.exclusiveMaximum = minimum + span + 12
    } else {
      schema.minimum = minimum
      schema.maximum = minimum + span + 12
    }
    if (multipleOf !== undefined && (type === 'number' || Number.isInteger(multipleOf)))
      schema.multipleOf = multipleOf
    return schema
  })

const leaf: fc.Arbitrary<JsonSchema> = fc.oneof(
  stringSchema,
  numberSchema,
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: ['string', 'null'], maxLength: 5 }),
  fc.constant({}),
)

const schemaOf = fc.letrec<{ schema: JsonSchema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    // Objects: required, closed or open, minProperties.
    fc
      .record({
        properties: fc.dictionary(
          fc.constantFrom('id', 'name', 'status', 'tags', 'email', 'owner', 'count'),
          tie('schema'),
          { maxKeys: 5 },
        ),
        closed: fc.boolean(),
        requireAll: fc.boolean(),
        extraRequired: fc.boolean(),
      })
      .map(({ properties, closed, requireAll, extraRequired }) => {
        const names = Object.keys(properties)
        const schema: JsonSchema = { type: 'object', properties }
        const required = requireAll ? names : names.slice(0, 1)
        if (extraRequired && !closed) required.push('extra_field')
        if (required.length > 0) schema.required = required
        if (closed) schema.additionalProperties = false
        return schema
      }),
    // Arrays: counts and uniqueness.
    fc
      .record({
        items: tie('schema'),
        minItems: fc.integer({ min: 0, max: 3 }),
        extra: fc.integer({ min: 0, max: 4 }),
      })
      .map(({ items, minItems, extra }) => ({
        type: 'array',
        items,
        minItems,
        maxItems: minItems + extra,
      })),
    // Unique items from a domain wide enough to have them.
    fc
      .record({
        items: fc.oneof(
          fc.record({
            type: fc.constant('string'),
            pattern: fc.constantFrom(...PATTERNS.slice(0, 8)),
          }),
          fc.constant({ type: 'integer', minimum: 0, maximum: 100_000 }),
          fc.constant({ type: 'string', format: 'uuid' }),
        ),
        minItems: fc.integer({ min: 0, max: 4 }),
      })
      .map(({ items, minItems }) => ({ type: 'array', items, minItems, uniqueItems: true })),
    // allOf: parts merged.
    fc.tuple(tie('schema'), tie('schema')).map(([a, b]) => ({
      allOf: [
        { type: 'object', properties: { a }, required: ['a'] },
        { type: 'object', properties: { b }, required: ['b'] },
      ],
    })),
    // oneOf with overlapping branches: exactly one must match.
    fc.constant({
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'cat' }, lives: { type: 'integer' } },
          required: ['kind'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'dog' }, bark: { type: 'string' } },
          required: ['kind'],
        },
      ],
    }),
    fc.constant({
      oneOf: [
        { type: 'number' },
        { type: 'integer', multipleOf: 2 },
        { type: 'string', maxLength: 3 },
      ],
    }),
    // Open branches that overlap (ListenNotes): only a value set apart matches exactly one.
    fc.constant({
      oneOf: [
        { type: 'object', properties: { count: { type: 'integer' } } },
        { type: 'object', properties: { total: { type: 'integer' } } },
        { type: 'object', properties: { next_offset: { type: 'integer' } } },
      ],
    }),
    fc.constant({ anyOf: [{ type: 'string', pattern: '^[A-Z]{2}$' }, { type: 'integer' }] }),
  ),
})).schema

describe('generateFromSchema: every generated value is valid (a property test against a plain ajv)', () => {
  it('answers a value valid by the schema for many schemas and seeds', () => {
    const compile = createSchemaCompiler('3.1')
    fc.assert(
      fc.property(schemaOf, fc.integer({ min: 1, max: 2 ** 31 - 1 }), (schema, seed) => {
        const faker = new SeedFaker()
        faker.seed(seed)
        const value = generateFromSchema(faker, schema, { compile, examples: false })
        const found = problems(schema, value)
        expect(found, `${JSON.stringify(schema)} -> ${JSON.stringify(value)}`).toBeUndefined()
      }),
      { numRuns: 600, seed: 35_006 },
    )
  })

  it('matches real patterns: Slack channel ids, 26 lowercase characters, ids with prefixes', () => {
    const faker = new SeedFaker()
    for (const pattern of PATTERNS) {
      faker.seed(7)
      for (let i = 0; i < 20; i += 1) {
        const value = generateFromSchema(faker, { type: 'string', pattern })
        // As ajv reads a pattern that is not valid with the `u` flag: without it.
        let regex: RegExp
        try {
          regex = new RegExp(pattern, 'u')
        } catch {
          regex = new RegExp(pattern)
        }
        expect(value, pattern).toMatch(regex)
      }
    }
  })

  it('draws the same value from the same seed (randexp on the seeded faker)', () => {
    const schema = {
      type: 'object',
      properties: { channel: { type: 'string', pattern: '^[CGD][A-Z0-9]{8,}$' } },
    }
    const draw = () => {
      const faker = new SeedFaker()
      faker.seed(20301205)
      return generateFromSchema(faker, schema)
    }
    expect(draw()).toEqual(draw())
  })

  it('ends a recursive schema: optional children stop at a bounded depth', () => {
    const node: JsonSchema = {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    }
    node.properties = { ...(node.properties as object), children: { type: 'array', items: node } }
    const faker = new SeedFaker()
    faker.seed(1)
    const value = generateFromSchema(faker, node)
    expect(value).toHaveProperty('name')
    expect(JSON.stringify(value).length).toBeLessThan(200_000)
  })
})
