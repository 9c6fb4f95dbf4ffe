import { readFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CliUsageError } from './cli-usage-error.js'

/**
 * Reads a config file: JSON, or a JavaScript module (`.js`, `.mjs`, `.cjs`)
 * whose default export is the settings object. Throws CliUsageError when it
 * cannot be read; what it holds is checked by `parseConfigFile`.
 *
 * @example
 * const value = await loadConfigFile('petstore-sandbox.config.json')
 */
export const loadConfigFile = async (file: string): Promise<unknown> => {
  const path = resolve(file)
  const extension = extname(path)
  if (['.js', '.mjs', '.cjs'].includes(extension)) {
    let module: { default?: unknown }
    try {
      module = (await import(pathToFileURL(path).href)) as { default?: unknown }
    } catch (error) {
      throw new CliUsageError(
        `Failed to load the config file ${file}: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    if (module.default === undefined)
      throw new CliUsageError(
        `Failed to load the config file ${file}: it has no default export. Use "export default { ... }".`,
      )
    return module.default
  }
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new CliUsageError(
      code === 'ENOENT'
        ? `Failed to read the config file ${file}: it does not exist.`
        : `Failed to read the config file ${file}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new CliUsageError(
      `Failed to read the config file ${file}: it is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    )
  }
}
