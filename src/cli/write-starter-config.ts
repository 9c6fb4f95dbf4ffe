import { writeFileSync } from 'node:fs'
import { extname } from 'node:path'
import { CliUsageError } from './cli-usage-error.js'
import { starterConfig } from './starter-config.js'

const KINDS: ReadonlyMap<string, 'javascript' | 'typescript'> = new Map([
  ['.mjs', 'javascript'],
  ['.js', 'javascript'],
  ['.ts', 'typescript'],
  ['.mts', 'typescript'],
])

/**
 * `petstore-sandbox init [FILE]`: writes the commented starter config, never
 * over an existing file. Returns what to tell the user; throws CliUsageError.
 *
 * @example
 * process.stdout.write(writeStarterConfig('petstore-sandbox.config.mjs'))
 */
export const writeStarterConfig = (file: string): string => {
  const kind = KINDS.get(extname(file))
  if (kind === undefined)
    throw new CliUsageError(
      `Failed to write ${file}: a config with handlers and scenarios is a module; name it .mjs or .js (or .ts/.mts where Node runs TypeScript).`,
    )
  try {
    // "wx": never replace a file the user has.
    writeFileSync(file, starterConfig({ typescript: kind === 'typescript' }), { flag: 'wx' })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new CliUsageError(
      code === 'EEXIST'
        ? `Failed to write ${file}: it exists. Edit it, remove it first, or name another file: petstore-sandbox init other.config.mjs`
        : `Failed to write ${file}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  return `Wrote ${file}: a commented starter config with a handler and a scenario of your own.
Start the sandbox with it: npx petstore-sandbox --config ${file}
`
}
