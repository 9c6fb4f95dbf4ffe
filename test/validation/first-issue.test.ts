import { describe, expect, it } from 'vitest'
import {
  AnswerErrorSchema,
  AnswerPetSchema,
  AnswerPetsSchema,
  firstIssue,
} from '../../src/validation/spec-schemas.js'

const explain = (schema: { safeParse: (v: unknown) => { error?: unknown } }, value: unknown) => {
  const { error } = schema.safeParse(value)
  return error === undefined
    ? 'valid'
    : firstIssue(error as Parameters<typeof firstIssue>[0], value)
}

describe('firstIssue: why an answer breaks the spec, in words of our own', () => {
  it('names a missing field, a wrong type, a value outside an enum, and the whole value', () => {
    expect(explain(AnswerErrorSchema, { error: 'not found' })).toBe(
      'code is missing (a string is required)',
    )
    expect(explain(AnswerErrorSchema, { code: 5, message: 'm', status: 404 })).toBe(
      'code is a number, not a string',
    )
    expect(explain(AnswerPetsSchema, [{ id: 'x', name: 'a', categoryId: 1 }])).toBe(
      '0.id is a string, not a number',
    )
    expect(explain(AnswerPetSchema, { id: 1, name: 'a', categoryId: 1, status: 'zzz' })).toBe(
      'status is "zzz", not one of "available", "pending", "sold"',
    )
    expect(explain(AnswerPetSchema, null)).toBe('it is null, not an object')
    expect(explain(AnswerPetsSchema, { pets: [] })).toBe('it is an object, not an array')
    expect(explain(AnswerPetSchema, { id: 1, name: 'a', categoryId: 1 })).toBe('valid')
  })
})
