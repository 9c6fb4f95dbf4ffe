import type { OperationId } from '../contract/operation-ids.js'
import type { AnswerRule, Violation } from '../validation/answer-rules.js'
import { validateAnswer } from '../validation/create-answer-validator.js'
import { ruleApplies } from './rule-applies.js'
import {
  TransportFailure,
  type VerifyResponse,
  type VerifyStop,
  type VerifyTransport,
} from './verify-types.js'

/** One request of a check. */
export interface Probe {
  /** The check this request serves: it fails when the request gets no answer. */
  check: string
  operation: OperationId | null
  method: string
  /** Below the base URL, with the query: `/pets?limit=1`. */
  path: string
  /** `key`: Bearer and the key; `none`: no Authorization; a string: that Authorization value. */
  auth: 'key' | 'none' | { authorization: string }
  headers?: Record<string, string>
  body?: string
}

/** An answer, parsed, with the rules it broke. */
export interface Observed extends VerifyResponse {
  /** The parsed JSON body, or undefined. */
  json: unknown
}

export interface RuleTally {
  /** Answers the rule applied to. */
  applied: number
  broken: number
  /** The first violation, with the request that got it. */
  first: string | undefined
}

export interface ProbeRunnerOptions {
  transport: VerifyTransport
  baseUrl: string
  key: string
  maxRequests: number
  now: () => number
  sleep: (ms: number) => Promise<void>
  /** The most `verify` waits for quota windows to reset, in all (`--max-wait`). */
  maxWaitMs: number
  /** Checks an answer of an operation an OpenAPI document added; undefined for any other operation. */
  checkDocument?: ((probe: Probe, answer: VerifyResponse) => Violation[] | undefined) | undefined
}

/** The default of `--max-wait`: one minute window, and a little. */
export const DEFAULT_MAX_WAIT_MS = 65_000

const parseJson = (body: string): unknown => {
  try {
    return body === '' ? undefined : JSON.parse(body)
  } catch {
    return undefined
  }
}

const integer = (value: string | undefined): number | undefined =>
  value !== undefined && /^[0-9]{1,16}$/.test(value.trim()) ? Number(value) : undefined

/**
 * Sends `verify`'s requests, safely: at most `maxRequests`; never again after
 * a 429 (it would count towards a ban) or after a request that got no answer;
 * when the key's `X-RateLimit-Remaining` reaches 0 it waits for the window to
 * reset while the run's waits stay within `maxWaitMs` in all, else stops. Every answer goes through the response
 * validator; each rule's tally is kept. `send` resolves undefined once stopped.
 *
 * @example
 * const runner = createProbeRunner({ transport, baseUrl, key, maxRequests: 150, now, sleep })
 * const answer = await runner.send({ check: 'spec.auth.valid-key', operation: 'listPets', method: 'GET', path: '/pets', auth: 'key' })
 */
export const createProbeRunner = (options: ProbeRunnerOptions) => {
  const tallies = new Map<AnswerRule, RuleTally>()
  const state = {
    requests: 0,
    stopped: undefined as VerifyStop | undefined,
    /** The check whose request got no answer, and why. */
    failed: undefined as { check: string; message: string } | undefined,
    rateLimit: undefined as { limit: number; remaining: number; reset: number } | undefined,
  }
  let remaining: number | undefined
  let resetAt: number | undefined
  /** What the run has waited for quota windows so far. */
  let waited = 0

  const tally = (probe: Probe, answer: VerifyResponse): void => {
    const violations = validateAnswer({
      operation: probe.operation,
      method: probe.method,
      url: `${options.baseUrl}${probe.path}`,
      requestBody: probe.body ?? null,
      status: answer.status,
      headers: answer.headers,
      body: answer.body,
    })
    const documented = options.checkDocument?.(probe, answer)
    if (documented !== undefined) violations.push(...documented)
    for (const rule of ruleApplies(
      probe.operation,
      probe.method,
      answer.status,
      documented !== undefined,
    )) {
      const entry = tallies.get(rule) ?? { applied: 0, broken: 0, first: undefined }
      entry.applied++
      tallies.set(rule, entry)
    }
    for (const violation of violations) {
      const entry = tallies.get(violation.rule) ?? { applied: 1, broken: 0, first: undefined }
      entry.broken++
      entry.first ??= `${violation.message} (${probe.method} ${probe.path} → ${answer.status})`
      tallies.set(violation.rule, entry)
    }
  }

  const pace = async (): Promise<boolean> => {
    if (remaining !== 0 || resetAt === undefined) return true
    const wait = resetAt * 1_000 - options.now()
    if (wait <= 0) return true
    // Bounded in all, not per wait: a target that always says "0 remaining, resets
    // in 59 s" would otherwise be waited for before every request (issue 31 item 7).
    if (waited + wait + 250 > options.maxWaitMs) {
      const until = new Date(resetAt * 1_000).toISOString()
      state.stopped = {
        reason: 'quota',
        message:
          waited === 0
            ? `The key's quota is used up (X-RateLimit-Remaining: 0) until ${until}, past --max-wait (${options.maxWaitMs / 1000} s); verify stopped rather than be refused.`
            : `The key's quota was used up again (X-RateLimit-Remaining: 0, until ${until}) after verify had waited ${Math.round(waited / 1000)} s for it; waiting more would pass --max-wait (${options.maxWaitMs / 1000} s), so verify stopped. A quota this small for the key's plan is worth a look.`,
      }
      return false
    }
    await options.sleep(wait + 250)
    waited += wait + 250
    remaining = undefined
    return true
  }

  const send = async (probe: Probe): Promise<Observed | undefined> => {
    if (state.stopped !== undefined) return undefined
    if (state.requests >= options.maxRequests) {
      state.stopped = {
        reason: 'budget',
        message: `The request budget (${options.maxRequests}) is used up; raise --max-requests to run every check.`,
      }
      return undefined
    }
    if (probe.auth === 'key' && !(await pace())) return undefined
    const headers: Record<string, string> = { ...probe.headers }
    if (probe.auth === 'key') headers.authorization = `Bearer ${options.key}`
    else if (probe.auth !== 'none') headers.authorization = probe.auth.authorization
    state.requests++
    let answer: VerifyResponse
    try {
      answer = await options.transport({
        method: probe.method,
        path: probe.path,
        headers,
        body: probe.body,
      })
    } catch (error) {
      const message =
        error instanceof TransportFailure || error instanceof Error ? error.message : String(error)
      const where = `${probe.method} ${options.baseUrl}${probe.path}`
      state.failed = { check: probe.check, message: `${where}: ${message}` }
      state.stopped = {
        reason: 'no-answer',
        message: `${where} got no answer (${message}); verify stopped.`,
      }
      return undefined
    }
    tally(probe, answer)
    if (probe.auth === 'key') {
      const limit = integer(answer.headers['x-ratelimit-limit'])
      remaining = integer(answer.headers['x-ratelimit-remaining'])
      resetAt = integer(answer.headers['x-ratelimit-reset'])
      if (state.rateLimit === undefined && limit !== undefined && remaining !== undefined)
        state.rateLimit = { limit, remaining, reset: resetAt ?? 0 }
    }
    if (answer.status === 429) {
      const retryAfter = answer.headers['retry-after']
      state.stopped = {
        reason: 'rate-limited',
        message: `${probe.method} ${probe.path} was answered 429${retryAfter === undefined ? '' : ` (Retry-After: ${retryAfter})`}; verify sends nothing more after a 429, so it never provokes a ban. Run it again later.`,
      }
    }
    return { ...answer, json: parseJson(answer.body) }
  }

  return { send, state, tallies }
}

export type ProbeRunner = ReturnType<typeof createProbeRunner>
