import { redactCredential, redactUrl } from '../journal/redact-secrets.js'
import type { VerifyCheck, VerifyReport } from './verify-types.js'

/** The target URL as a report may show it: no user info, secret query parameters redacted. */
export const redactTarget = (url: string): string =>
  redactUrl(url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#]*@/i, '$1(redacted)@'))

/**
 * A secret this long is replaced wherever it occurs; a shorter one only where it stands
 * as a whole token, so that a key such as `e` does not rewrite every `e` of every message.
 */
const ANYWHERE_FROM = 8
/** Characters an API key may contain next to it (RFC 6750 b64token, `.` and `=` aside, so "key k." still ends at `k`). */
const KEY_CHAR = '[A-Za-z0-9_~+/-]'

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

type Scrub = (text: string) => string

const scrubberOf = (secrets: readonly string[]): Scrub => {
  const patterns = secrets
    .filter((secret) => secret.length > 0)
    .flatMap((secret) => {
      const hint = redactCredential(`Bearer ${secret}`).slice('Bearer '.length)
      const encoded = encodeURIComponent(secret)
      return (encoded === secret ? [secret] : [secret, encoded]).map((form) => ({
        pattern: new RegExp(
          form.length >= ANYWHERE_FROM
            ? escapeRegExp(form)
            : `(?<!${KEY_CHAR})${escapeRegExp(form)}(?!${KEY_CHAR})`,
          'g',
        ),
        hint,
      }))
    })
  return (text) => {
    let out = text
    // A function replacement: a hint is never read as a `$&` pattern.
    for (const { pattern, hint } of patterns) out = out.replace(pattern, () => hint)
    return out
  }
}

/** String values only, at any depth; object keys (error-code maps) and other values are kept. */
const scrubValues = (value: unknown, scrub: Scrub): unknown => {
  if (typeof value === 'string') return scrub(value)
  if (Array.isArray(value)) return value.map((item) => scrubValues(item, scrub))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, scrubValues(item, scrub)]),
    )
  return value
}

/**
 * The report with every secret, as sent and percent-encoded, replaced by its
 * redaction hint (`sand…(redacted)`) in the text a target's answer can reach:
 * each check's `message`, `observed` and `expected`, each skip's `reason`, the
 * stop's `message`. The report's structure (ids, kinds, field names, the
 * emitted `config`) is never rewritten, whatever the key: a key such as `s`
 * or `spec` cannot corrupt it. A secret under 8 characters is replaced only
 * where it stands as a whole token (docs/verify.md, "Secrets").
 *
 * @example
 * redactReport(report, ['sandbox-pro']).checks[0].message
 * // 'key sand…(redacted) refused' where the target said 'key sandbox-pro refused'
 */
export const redactReport = (report: VerifyReport, secrets: readonly string[]): VerifyReport => {
  const scrub = scrubberOf(secrets)
  const check = (c: VerifyCheck): VerifyCheck => ({
    ...c,
    observed: scrubValues(c.observed, scrub),
    expected: scrubValues(c.expected, scrub),
    message: scrub(c.message),
  })
  return {
    ...report,
    stopped:
      report.stopped === null
        ? null
        : { reason: report.stopped.reason, message: scrub(report.stopped.message) },
    checks: report.checks.map(check),
    skipped: report.skipped.map((s) => ({ ...s, reason: scrub(s.reason) })),
  }
}
