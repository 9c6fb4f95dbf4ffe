import { redactCredential, redactUrl } from '../journal/redact-secrets.js'

/** The target URL as a report may show it: no user info, secret query parameters redacted. */
export const redactTarget = (url: string): string =>
  redactUrl(url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#]*@/i, '$1(redacted)@'))

/**
 * A deep copy of `value` with every occurrence of each secret, as sent and
 * percent-encoded, replaced by its redaction hint (`sand…(redacted)`): a
 * report never carries the key, even where the target echoed it.
 *
 * @example
 * redactSecrets({ message: 'key sandbox-pro refused' }, ['sandbox-pro'])
 * // { message: 'key sand…(redacted) refused' }
 */
export const redactSecrets = <T>(value: T, secrets: readonly string[]): T => {
  const pairs = secrets
    .filter((secret) => secret.length > 0)
    .flatMap((secret) => {
      const hint = redactCredential(`Bearer ${secret}`).slice('Bearer '.length)
      const encoded = encodeURIComponent(secret)
      return encoded === secret
        ? [[secret, hint]]
        : [
            [secret, hint],
            [encoded, hint],
          ]
    })
  const scrub = (item: unknown): unknown => {
    if (typeof item === 'string') {
      let text = item
      for (const [secret, hint] of pairs) text = text.replaceAll(secret as string, hint as string)
      return text
    }
    if (Array.isArray(item)) return item.map(scrub)
    if (typeof item === 'object' && item !== null)
      return Object.fromEntries(
        Object.entries(item).map(([k, v]) => [scrub(k) as string, scrub(v)]),
      )
    return item
  }
  return scrub(value) as T
}
