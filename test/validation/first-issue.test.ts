import { describe, expect, it } from 'vitest'
import { OWN_WORDS } from '../../src/http/describe-issue.js'
import {
  AnswerErrorSchema,
  AnswerPetSchema,
  AnswerPetsSchema,
  firstIssue,
} from '../../src/validation/spec-schemas.js'

const explain = (
  schema: { safeParse: (v: unknown, p: typeof OWN_WORDS) => { error?: unknown } },
  value: unknown,
) => {
  const { error } = schema.safeParse(value, OWN_WORDS)
  return error === undefined
    ? 'valid'
    : firstIssue(error as Parameters<typeof firstIssue>[0], value)
}

describe('firstIssue: why an answer breaks the spec, in the words of describe-issue', () => {
  it('names a missing field, a wrong type, a value outside an enum, and the whole value', () => {
    expect(explain(AnswerErrorSchema, { error: 'not found' })).toBe('code is required (a string)')
    expect(explain(AnswerErrorSchema, { code: 5, message: 'm', status: 404 })).toBe(
      'code must be a string, got the number 5',
    )
    expect(explain(AnswerPetsSchema, [{ id: 'x', name: 'a', categoryId: 1 }])).toBe(
      '0.id must be an integer',
    )
    expect(explain(AnswerPetSchema, { id: 1, name: 'a', categoryId: 1, status: 'zzz' })).toBe(
      'status must be one of "available", "pending", "sold", got the string "zzz"',
    )
    expect(explain(AnswerPetSchema, null)).toBe('the body must be an object, got null')
    expect(explain(AnswerPetsSchema, { pets: [] })).toBe('the body must be an array, got an object')
    expect(explain(AnswerPetSchema, { id: 1, name: 'a', categoryId: 1 })).toBe('valid')
  })
})
