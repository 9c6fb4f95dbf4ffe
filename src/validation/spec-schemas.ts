import * as z from 'zod/mini'
import { ErrorBodySchema } from '../contract/error-body.js'
import { PetSchema } from '../contract/pet.js'
import { describeIssue, type Issue } from '../http/describe-issue.js'

/**
 * The shapes answers are checked against, derived once from the contract's
 * one schema of each (src/contract). The spec makes `status` optional in a
 * Pet ("all fields of NewPet plus id"); the sandbox always sends it, and
 * whether a deployment does is the `defaultStatus` gap, not a spec breach.
 */
export const AnswerPetSchema = z.partial(PetSchema, { status: true })
export const AnswerPetsSchema = z.array(AnswerPetSchema)
export const AnswerErrorSchema = ErrorBodySchema

/**
 * The first problem zod found, as `path what`, in the project's words
 * (src/http/describe-issue.ts): `code is required (a string)`, `0.id must be
 * a number, got the string "x"`. Parse with `OWN_WORDS`; `input` is the value parsed.
 */
export const firstIssue = (error: { issues: readonly Issue[] }, input?: unknown): string => {
  const issue = error.issues[0]
  if (issue === undefined) return 'is invalid'
  const path = issue.path.map(String).join('.')
  const what = describeIssue(issue, { input })
  return path === '' ? `the body ${what}` : `${path} ${what}`
}
