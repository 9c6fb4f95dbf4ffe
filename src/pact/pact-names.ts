import type { PactOptions } from './pact-document.js'

/** Longest consumer or provider name accepted, in characters. */
export const PACT_NAME_MAX = 200

// C0 and C1 controls and DEL: no name a broker shows.
const CONTROL = /\p{Cc}/u

/**
 * Why `value` is no pacticipant name (`consumer`, `provider`), or undefined
 * when it is one: a string of 1 to 200 characters, not only whitespace, with
 * no control character.
 *
 * @example
 * pactNameProblem('') // 'must not be empty'
 */
export const pactNameProblem = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return 'must be a string (the name a Pact broker shows)'
  if (value.trim() === '') return 'must not be empty'
  if (value.length > PACT_NAME_MAX) return `must have at most ${PACT_NAME_MAX} characters`
  if (CONTROL.test(value)) return 'must not contain control characters'
  return undefined
}

/**
 * The options of `sandbox.pact()`, checked; throws a TypeError naming the
 * first bad one (a programmer error: fail fast).
 *
 * @example
 * checkPactOptions({ consumer: 'web', provider: 'pets' })
 */
export const checkPactOptions = (options: unknown): PactOptions => {
  const given = (typeof options === 'object' && options !== null ? options : {}) as Record<
    string,
    unknown
  >
  for (const name of ['consumer', 'provider'] as const) {
    const problem = pactNameProblem(given[name])
    if (problem !== undefined)
      throw new TypeError(
        `Failed to export the pact: ${name} ${problem}, got ${JSON.stringify(given[name]) ?? 'undefined'}. Fix: sandbox.pact({ consumer: 'my-app', provider: 'pet-store' }).`,
      )
  }
  return { consumer: given.consumer as string, provider: given.provider as string }
}
