/** The longest text a message quotes whole (decision 0057). */
const QUOTE_MAX = 80

/**
 * A text given by a user, quoted for a message: in double quotes, at most 80
 * characters of it, a longer one cut with its length said, and never a line
 * break (JSON escapes), so a refusal stays one short line whatever was given.
 *
 * @example
 * quoteText('slwo') // '"slwo"'
 * quoteText('x'.repeat(100_000)) // '"xxx…xxx…" (100,000 characters)'
 */
export const quoteText = (text: string): string => {
  if (text.length <= QUOTE_MAX) return JSON.stringify(text)
  return `${JSON.stringify(`${text.slice(0, QUOTE_MAX)}…`)} (${text.length.toLocaleString('en-US')} characters)`
}

/** At most this many names listed in a message. */
const NAMES_MAX = 40

/**
 * A list of names for "use one of …": each quoted whole or cut, at most 40,
 * then how many more.
 *
 * @example
 * listNames(['default', 'slow']) // 'default, slow'
 */
export const listNames = (names: readonly string[]): string => {
  const shown = names
    .slice(0, NAMES_MAX)
    .map((name) => (name.length > QUOTE_MAX ? quoteText(name) : name))
  return names.length > NAMES_MAX
    ? `${shown.join(', ')} and ${names.length - NAMES_MAX} more`
    : shown.join(', ')
}
