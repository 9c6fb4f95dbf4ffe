import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { JsonSchema } from './openapi-document.js'
import { toJsonSchema } from './to-json-schema.js'

/** A schema compiled once: true for a valid value, else the problems found. */
export type SchemaCheck = (value: unknown) => true | readonly ErrorObject[]

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 }

/**
 * One ajv instance per document (draft 2020-12 for OpenAPI 3.1, draft 7 with
 * 3.0's schemas converted), with ajv-formats and OpenAPI's own formats.
 * `compile` keeps each validator; every schema is compiled once, at start.
 *
 * @example
 * const compile = createSchemaCompiler('3.1')
 * const check = compile({ type: 'integer' })
 * check(5) // true
 */
export const createSchemaCompiler = (
  dialect: '3.0' | '3.1',
): ((schema: JsonSchema) => SchemaCheck) => {
  const options = { strict: false, allErrors: true, validateSchema: false } as const
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
  const compiled = new WeakMap<JsonSchema, SchemaCheck>()
  return (schema) => {
    const known = compiled.get(schema)
    if (known !== undefined) return known
    const validate: ValidateFunction = ajv.compile(toJsonSchema(schema, dialect))
    const check: SchemaCheck = (value) => (validate(value) ? true : (validate.errors ?? []))
    compiled.set(schema, check)
    return check
  }
}
