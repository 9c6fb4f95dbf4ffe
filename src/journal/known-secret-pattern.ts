/**
 * How a known secret (the upstream key) can be written in text an upstream
 * echoes: each of its characters as it is, as a JSON escape (`\/`, `\"`,
 * `\\`, `\n`..., `\u002f` in either case, surrogate pairs for characters past
 * U+FFFF) or percent-encoded (`%2F`, `%C3%A9`: a URL or a form), in any mix.
 * Text holding none of `\` and `%` is matched literally, without a regex.
 */

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '/': '\\/',
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
}

const regexLiteral = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')

/** A hex digit in either case (`[aA]`), digits as they are. */
const anyCaseHex = (hex: string): string =>
  [...hex].map((d) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d)).join('')

const jsonUnit = (unit: number): string => `\\\\u${anyCaseHex(unit.toString(16).padStart(4, '0'))}`

const encoder = new TextEncoder()

const alternatives = (char: string): string => {
  const ways = [regexLiteral(char)]
  const short = Object.hasOwn(SHORT_ESCAPES, char) ? SHORT_ESCAPES[char] : undefined
  if (short !== undefined) ways.push(regexLiteral(short))
  // The character's UTF-16 units, each as \uXXXX (two for a character past U+FFFF).
  let units = ''
  for (let i = 0; i < char.length; i++) units += jsonUnit(char.charCodeAt(i))
  ways.push(units)
  let percent = ''
  for (const byte of encoder.encode(char))
    percent += `%${anyCaseHex(byte.toString(16).padStart(2, '0'))}`
  ways.push(percent)
  return `(?:${ways.join('|')})`
}

let cached: { secret: string; pattern: RegExp } | undefined

/** The global regex matching `secret` written any of the ways above (built once per secret). */
const knownSecretPattern = (secret: string): RegExp => {
  if (cached?.secret !== secret) {
    let source = ''
    for (const char of secret) source += alternatives(char)
    cached = { secret, pattern: new RegExp(source, 'g') }
  }
  return cached.pattern
}

/**
 * `text` with `secret` replaced by `replacement` wherever it is written as
 * it is, JSON-escaped or percent-encoded (any mix, character by character).
 *
 * @example
 * replaceKnownSecret('{"k":"s3\\/cr3t"}', 's3/cr3t', 'x') // '{"k":"x"}'
 */
export const replaceKnownSecret = (text: string, secret: string, replacement: string): string => {
  if (!text.includes('\\') && !text.includes('%'))
    return text.includes(secret) ? text.replaceAll(secret, replacement) : text
  return text.replace(knownSecretPattern(secret), () => replacement)
}
