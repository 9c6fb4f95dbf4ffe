import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { FILE_LIMITS, readTextFile, TextFileError } from '../files/read-text-file.js'
import { CliUsageError } from './cli-usage-error.js'

const MODULES = ['.js', '.mjs', '.cjs']
const TYPESCRIPT = ['.ts', '.mts', '.cts']

/** Why this Node cannot load a TypeScript config, and what works instead. */
const noTypeScript = (file: string): string =>
  `Failed to load the config file ${file}: this Node (${process.version}) does not run TypeScript. Node 22.18 or later (and 23.6 or later) loads a .ts/.mts config as it is (type stripping: types only, no enums or namespaces); on this Node, start through tsx, NODE_OPTIONS="--import tsx" npx petstore-sandbox --config ${file}, or write the config as .mjs.`

/**
 * Reads a config file: JSON, or a module whose default export is the settings
 * object: JavaScript (`.js`, `.mjs`, `.cjs`), or TypeScript (`.ts`, `.mts`,
 * `.cts`) where Node runs it (22.18 and later, or through tsx). Throws
 * CliUsageError when it cannot be read; what it holds is checked by
 * `parseConfigFile`.
 *
 * @example
 * const value = await loadConfigFile('petstore-sandbox.config.mjs')
 */
export const loadConfigFile = async (file: string): Promise<unknown> => {
  const path = resolve(file)
  const extension = extname(path)
  // Read first, a module too: only a regular file of at most 16 MiB (never a FIFO, which
  // would hang the start, nor /dev/zero); a module is then imported from the same path.
  let text: string
  try {
    text = readTextFile(path, FILE_LIMITS.config)
  } catch (error) {
    const reason = error instanceof TextFileError ? error : undefined
    throw new CliUsageError(
      `Failed to read the config file ${file}: ${reason?.reason === 'missing' ? 'it does not exist' : (reason?.message ?? String(error))}.`,
    )
  }
  if ([...MODULES, ...TYPESCRIPT].includes(extension)) {
    let module: Record<string, unknown>
    try {
      module = (await import(pathToFileURL(path).href)) as Record<string, unknown>
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (TYPESCRIPT.includes(extension) && code === 'ERR_UNKNOWN_FILE_EXTENSION')
        throw new CliUsageError(noTypeScript(file))
      throw new CliUsageError(
        `Failed to load the config file ${file}: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    // Named exports (`export const handlers = …`) are a common slip: the settings are one object.
    // (CommonJS files show their module.exports' properties as named exports too: those are fine.)
    const settings = module.default
    const named = Object.keys(module).filter(
      (name) =>
        name !== 'default' &&
        name !== 'module.exports' &&
        (typeof settings !== 'object' || settings === null || !Object.hasOwn(settings, name)),
    )
    if (settings === undefined || named.length > 0)
      throw new CliUsageError(
        `Failed to load the config file ${file}: ${
          named.length > 0
            ? `it exports ${named.map((n) => `"${n}"`).join(', ')} by name; put every setting in the default export`
            : 'it has no default export'
        }. Use "export default { ... }" (or defineConfig({ ... }) from petstore-sandbox/server).`,
      )
    return settings
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new CliUsageError(
      `Failed to read the config file ${file}: it is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    )
  }
}
