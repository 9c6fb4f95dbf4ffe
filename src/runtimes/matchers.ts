import type { JournalEntry } from '../journal/journal.js'
import type { ExpectationFailure } from '../judge/describe-expectation.js'
import { showMatch } from '../judge/describe-expectation.js'
import type { ExpectOptions, RequestMatch } from '../judge/request-match.js'

/** Anything holding the sandbox's request assertions: a sandbox of any runtime, or one session's controls. */
export interface ReceivingSandbox {
  readonly requests: {
    expect(match: RequestMatch, options?: ExpectOptions): Promise<JournalEntry[]>
  }
}

/** What vitest and Jest hand a matcher (`this`). */
interface MatcherState {
  isNot: boolean
}

interface MatcherResult {
  pass: boolean
  message(): string
}

/** The sandbox's matchers, typed for `expect(sandbox)`; vitest's and Jest's `Matchers` extend it. */
export interface SandboxMatchers<R = unknown> {
  /**
   * Passes when the sandbox's journal holds `times` requests matching (default:
   * at least one); fails with the nearest misses as a diff. Asynchronous: await it.
   *
   * @example
   * await expect(sandbox).toHaveReceived({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } }, 1)
   */
  toHaveReceived(match: RequestMatch, times?: number): Promise<R>
}

const isReceivingSandbox = (value: unknown): value is ReceivingSandbox =>
  typeof value === 'object' &&
  value !== null &&
  'requests' in value &&
  typeof (value as { requests?: { expect?: unknown } }).requests?.expect === 'function'

const isExpectationError = (error: unknown): error is Error & { failure: ExpectationFailure } =>
  error instanceof Error && error.name === 'RequestExpectationError' && 'failure' in error

const listed = (entries: readonly JournalEntry[]): string =>
  entries
    .slice(0, 5)
    .map((e) => `#${e.seq} ${e.method} ${new URL(e.url).pathname} → ${e.status ?? 'no response'}`)
    .join(', ') + (entries.length > 5 ? `, … and ${entries.length - 5} more` : '')

/**
 * Matchers for vitest and Jest: `expect.extend(sandboxMatchers)`, or import
 * `petstore-sandbox/vitest` / `petstore-sandbox/jest` once in a setup file,
 * which also types them.
 *
 * @example
 * import { sandboxMatchers } from 'petstore-sandbox/matchers'
 * expect.extend(sandboxMatchers)
 * await expect(sandbox).toHaveReceived({ method: 'GET', path: '/v1/pets' })
 */
export const sandboxMatchers = {
  async toHaveReceived(
    this: MatcherState,
    received: unknown,
    match: RequestMatch,
    times?: number,
  ): Promise<MatcherResult> {
    if (!isReceivingSandbox(received))
      throw new TypeError(
        `Failed to check toHaveReceived: expect() was given ${received === null ? 'null' : typeof received}, not a sandbox. Pass the sandbox (or a session's controls): expect(sandbox).toHaveReceived(match).`,
      )
    try {
      const entries = await received.requests.expect(
        match,
        times === undefined ? undefined : { times },
      )
      const wanted = times === undefined ? 'no request' : `not exactly ${times}`
      return {
        pass: true,
        message: () =>
          `Expected ${wanted} matching ${showMatch(match)}; received ${entries.length}: ${listed(entries)}.`,
      }
    } catch (error) {
      if (!isExpectationError(error)) throw error
      return { pass: false, message: () => error.message }
    }
  },
}

// The error `requests.expect` rejects with: exported here, where tests import from, and
// not from every entry, so that a browser app's start-up code shares nothing with the
// assertions it loads only when a test asserts (decision 0032).
export { RequestExpectationError } from '../judge/request-expectation-error.js'
