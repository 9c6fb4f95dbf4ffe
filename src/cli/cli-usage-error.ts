/** A bad flag, variable, config file or value: the CLI prints the message and exits with code 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError'
}
