import * as z from 'zod/mini'
import { ErrorBodySchema } from '../contract/error-body.js'
import { PetSchema } from '../contract/pet.js'

/**
 * The shapes answers are checked against, derived once from the contract's
 * one schema of each (src/contract). The spec makes `status` optional in a
 * Pet ("all fields of NewPet plus id"); the sandbox always sends it, and
 * whether a deployment does is the `defaultStatus` gap, not a spec breach.
 */
export const AnswerPetSchema = z.partial(PetSchema, { status: true })
export const AnswerPetsSchema = z.array(AnswerPetSchema)
export const AnswerErrorSchema = ErrorBodySchema

interface Issue {
  code?: string
  path: PropertyKey[]
  message: string
  expected?: unknown
  values?: readonly unknown[]
  keys?: readonly string[]
  minimum?: unknown
  maximum?: unknown
  origin?: unknown
}

const kindOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown => {
  let value = input
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined
    // Own fields only: a path may name `__proto__` or `constructor`.
    const record = value as Record<PropertyKey, unknown>
    value = Object.hasOwn(record, key) ? record[key] : undefined
  }
  return value
}

const sizeWord = (origin: unknown): string =>
  origin === 'string' ? ' characters' : origin === 'array' ? ' items' : ''

/** One issue in words of our own (zod/mini has no messages in a browser). */
const describeIssue = (issue: Issue, input: unknown): string => {
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(input, issue.path)
      const expected = `${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${String(issue.expected)}`
      return value === undefined
        ? `is missing (${expected} is required)`
        : `is ${kindOf(value)}, not ${expected}`
    }
    case 'invalid_value':
      return `is ${JSON.stringify(valueAt(input, issue.path))}, not one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`
    case 'too_small':
      return `is below the minimum of ${String(issue.minimum)}${sizeWord(issue.origin)}`
    case 'too_big':
      return `is above the maximum of ${String(issue.maximum)}${sizeWord(issue.origin)}`
    case 'unrecognized_keys':
      return `has fields the spec does not name: ${(issue.keys ?? []).join(', ')}`
    default:
      return issue.message
  }
}

/**
 * The first problem zod found, as `path what`: `code is missing (a string is
 * required)`, `id is a string, not a number`. `input` is the value parsed.
 */
export const firstIssue = (error: { issues: readonly Issue[] }, input?: unknown): string => {
  const issue = error.issues[0]
  if (issue === undefined) return 'is invalid'
  const path = issue.path.map(String).join('.')
  const what = describeIssue(issue, input)
  return path === '' ? `it ${what}` : `${path} ${what}`
}
