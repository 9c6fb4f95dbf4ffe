/** Options every entry takes without listing them: `limiter` replaces the rate limiter for the benchmark. */
const INTERNAL_OPTION_NAMES: readonly string[] = ['limiter']

/**
 * Fails fast on an option an entry does not know (a typo, say), naming the
 * options of that entry: `createSandboxServer` lists `dataFile` and `cors`,
 * `setupSandbox` lists `onUnhandledRequest`, and none lists internal ones.
 *
 * @example
 * checkOptionNames(options, SERVER_OPTION_NAMES, 'create the server')
 */
export const checkOptionNames = (
  options: unknown,
  known: readonly string[],
  what: string,
): void => {
  if (typeof options !== 'object' || options === null) return // the core refuses it with its own message
  const unknown = Object.keys(options).filter(
    (name) => !known.includes(name) && !INTERNAL_OPTION_NAMES.includes(name),
  )
  if (unknown.length === 0) return
  throw new TypeError(
    `Failed to ${what}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}. Known options: ${known.join(', ')}.`,
  )
}
