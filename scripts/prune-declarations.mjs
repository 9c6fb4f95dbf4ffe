// Only the public API's declarations ship (issue 21): tsc writes a .d.ts for
// every source file, Lua scripts and the CLI's internals included; this keeps
// the ones the package entries' declarations reach (through `from '…'` and
// `import('…')`) and deletes the rest. Run by scripts/build.mjs after tsc.
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** The declaration of each package entry: the exports map's `types`, from dist/. */
export const ENTRY_DECLARATIONS = Object.values(
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).exports,
)
  .map((entry) => (typeof entry === 'object' && entry !== null ? entry.types : undefined))
  .filter((types) => typeof types === 'string')
  .map((types) => types.replace(/^\.\/dist\//, ''))

const SPECIFIER = /(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g

/**
 * The declaration files the entries reach, as paths relative to `dist`.
 *
 * @example
 * reachableDeclarations('dist') // Set { 'index.d.ts', 'core-api.d.ts', … }
 */
export const reachableDeclarations = (dist, entries = ENTRY_DECLARATIONS) => {
  const seen = new Set()
  const queue = entries.map((entry) => resolve(dist, entry))
  while (queue.length > 0) {
    const file = queue.pop()
    const name = relative(dist, file)
    if (seen.has(name) || !existsSync(file)) continue
    seen.add(name)
    // Comments hold @example imports that are not the file's own; code never starts a line with *.
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
    for (const [, specifier] of code.matchAll(SPECIFIER))
      queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')))
  }
  return seen
}

const declarationsIn = (folder, root = folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return declarationsIn(path, root)
    return entry.name.endsWith('.d.ts') ? [relative(root, path)] : []
  })

const removeEmptyFolders = (folder) => {
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    if (entry.isDirectory()) removeEmptyFolders(join(folder, entry.name))
  if (readdirSync(folder).length === 0) rmdirSync(folder)
}

// A side-effect import (`import './redis-store.js'`) carries no types, yet tsc keeps it in the
// declaration, and the file it names is bundled away: TypeScript 7, and 5.9 with
// --noUncheckedSideEffectImports, then fail on it (issue 31, item 8).
const SIDE_EFFECT_IMPORT = /^import\s+['"][^'"]+['"];?[ \t]*\r?\n/gm

/**
 * Removes the side-effect imports from a declaration file's text.
 *
 * @example
 * withoutSideEffectImports("import './x.js';\nexport {};\n") // 'export {};\n'
 */
export const withoutSideEffectImports = (text) => text.replace(SIDE_EFFECT_IMPORT, '')

/**
 * Deletes every declaration in `dist` that no entry reaches, and the side-effect
 * imports of those kept; returns how many were deleted.
 *
 * @example
 * pruneDeclarations('dist')
 */
export const pruneDeclarations = (dist) => {
  const keep = reachableDeclarations(dist)
  const drop = declarationsIn(dist).filter((name) => !keep.has(name))
  for (const name of drop) rmSync(join(dist, name))
  for (const name of keep) {
    const path = join(dist, name)
    const text = readFileSync(path, 'utf8')
    const pruned = withoutSideEffectImports(text)
    if (pruned !== text) writeFileSync(path, pruned)
  }
  removeEmptyFolders(dist)
  return drop.length
}
