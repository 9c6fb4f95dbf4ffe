import type { ExpectationFailure } from './describe-expectation.js'

/**
 * Thrown by `requests.expect` (and reported by `toHaveReceived`) when the
 * journal does not hold the requests a test expected. Its message shows the
 * nearest misses as a diff; `failure` holds the same as data.
 *
 * @example
 * try {
 *   await sandbox.requests.expect({ method: 'POST', path: '/v1/pets' }, { times: 1 })
 * } catch (error) {
 *   if (error instanceof RequestExpectationError) console.log(error.failure.misses)
 * }
 */
export class RequestExpectationError extends Error {
  override readonly name = 'RequestExpectationError'
  constructor(readonly failure: ExpectationFailure) {
    super(failure.message)
  }
}
