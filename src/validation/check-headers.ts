import type { Violation } from './answer-rules.js'
import { type HeaderSource, readHeader } from './read-header.js'

const NON_NEGATIVE_INTEGER = /^(0|[1-9][0-9]{0,15})$/
const DELAY_SECONDS = /^[0-9]{1,10}$/
// RFC 9745: the Deprecation header is a structured-field Date, `@` and integer seconds.
const RFC_9745_DATE = /^@-?[0-9]{1,15}$/
// Seconds from 2001 to 5138: a count of seconds (a delta) or of milliseconds falls outside.
const MIN_UNIX_SECONDS = 1_000_000_000
const MAX_UNIX_SECONDS = 100_000_000_000
const BEARER_CHALLENGE = /(^|,)\s*bearer(\s|,|$)/i

const quote = (value: string): string =>
  JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)

const checkInteger = (name: string, value: string | undefined, out: Violation[]): void => {
  if (value !== undefined && !NON_NEGATIVE_INTEGER.test(value.trim())) {
    out.push({
      rule: 'spec.rate-limit.headers',
      message: `${name} is ${quote(value)}, not a non-negative integer.`,
    })
  }
}

/**
 * `spec.rate-limit.*` on every answer: the three X-RateLimit-* headers as
 * non-negative integers (Remaining at most Limit), Reset a Unix timestamp in
 * seconds, and Retry-After on a 429.
 */
export const checkRateLimitHeaders = (
  status: number,
  headers: HeaderSource,
  out: Violation[],
): void => {
  const limit = readHeader(headers, 'x-ratelimit-limit')
  const remaining = readHeader(headers, 'x-ratelimit-remaining')
  const reset = readHeader(headers, 'x-ratelimit-reset')
  if (limit === undefined || remaining === undefined || reset === undefined) {
    const missing = [
      limit === undefined ? 'X-RateLimit-Limit' : '',
      remaining === undefined ? 'X-RateLimit-Remaining' : '',
      reset === undefined ? 'X-RateLimit-Reset' : '',
    ].filter((name) => name !== '')
    out.push({
      rule: 'spec.rate-limit.headers',
      message: `A ${status} answer lacks ${missing.join(', ')}.`,
    })
  }
  checkInteger('X-RateLimit-Limit', limit, out)
  checkInteger('X-RateLimit-Remaining', remaining, out)
  checkInteger('X-RateLimit-Reset', reset, out)
  if (
    limit !== undefined &&
    remaining !== undefined &&
    NON_NEGATIVE_INTEGER.test(limit.trim()) &&
    NON_NEGATIVE_INTEGER.test(remaining.trim()) &&
    Number(remaining) > Number(limit)
  ) {
    out.push({
      rule: 'spec.rate-limit.headers',
      message: `X-RateLimit-Remaining (${remaining}) is more than X-RateLimit-Limit (${limit}).`,
    })
  }
  if (reset !== undefined && NON_NEGATIVE_INTEGER.test(reset.trim())) {
    const seconds = Number(reset)
    if (seconds < MIN_UNIX_SECONDS || seconds >= MAX_UNIX_SECONDS) {
      out.push({
        rule: 'spec.rate-limit.reset',
        message: `X-RateLimit-Reset is ${reset}: not a Unix timestamp in seconds (a count of seconds, or milliseconds?).`,
      })
    }
  }
  if (status === 429) {
    const retryAfter = readHeader(headers, 'retry-after')
    if (retryAfter === undefined) {
      out.push({ rule: 'spec.rate-limit.retry-after', message: 'A 429 answer lacks Retry-After.' })
    } else if (!DELAY_SECONDS.test(retryAfter.trim()) && Number.isNaN(Date.parse(retryAfter))) {
      out.push({
        rule: 'spec.rate-limit.retry-after',
        message: `Retry-After is ${quote(retryAfter)}: neither seconds nor an HTTP date.`,
      })
    }
  }
}

/** `spec.auth.challenge` and `spec.errors.allow`: what HTTP asks of a 401 and a 405. */
export const checkChallengeHeaders = (
  status: number,
  headers: HeaderSource,
  out: Violation[],
): void => {
  if (status === 401) {
    const challenge = readHeader(headers, 'www-authenticate')
    if (challenge === undefined || !BEARER_CHALLENGE.test(challenge)) {
      out.push({
        rule: 'spec.auth.challenge',
        message:
          challenge === undefined
            ? 'A 401 answer lacks WWW-Authenticate (RFC 6750: Bearer realm="…").'
            : `WWW-Authenticate is ${quote(challenge)}, not a Bearer challenge.`,
      })
    }
  } else if (status === 405 && (readHeader(headers, 'allow') ?? '').trim() === '') {
    out.push({ rule: 'spec.errors.allow', message: 'A 405 answer lacks Allow.' })
  }
}

/** Statuses of getPet answered after routing: they carry the deprecation headers. */
const ROUTED_GET_STATUSES: ReadonlySet<number> = new Set([200, 400, 404, 410])

/**
 * `spec.get.deprecation` and `spec.get.sunset`: getPet's routed answers (200,
 * 400, 404, 410) carry `Deprecation` (RFC 9745) and `Sunset` naming the
 * removal date. Answers refused before routing (401, 429) and server errors
 * may come from a layer in front of the operation and are not asked to.
 */
export const checkDeprecationHeaders = (
  status: number,
  headers: HeaderSource,
  sunsetAt: number,
  out: Violation[],
): void => {
  if (!ROUTED_GET_STATUSES.has(status)) return
  const deprecation = readHeader(headers, 'deprecation')
  if (deprecation === undefined) {
    out.push({ rule: 'spec.get.deprecation', message: `A ${status} of getPet lacks Deprecation.` })
  } else if (!RFC_9745_DATE.test(deprecation.trim())) {
    out.push({
      rule: 'spec.get.deprecation',
      message: `Deprecation is ${quote(deprecation)}, not an RFC 9745 date (@<unix seconds>).`,
    })
  }
  const sunset = readHeader(headers, 'sunset')
  if (sunset === undefined) {
    out.push({ rule: 'spec.get.sunset', message: `A ${status} of getPet lacks Sunset.` })
  } else if (Date.parse(sunset) !== sunsetAt) {
    out.push({
      rule: 'spec.get.sunset',
      message: `Sunset is ${quote(sunset)}, not the removal date ${new Date(sunsetAt).toUTCString()}.`,
    })
  }
}
