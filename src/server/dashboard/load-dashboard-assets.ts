import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** One built file of the dashboard, held in memory. */
export interface DashboardAsset {
  contentType: string
  body: Buffer
  /** Hashed names never change content: cache them for a year. */
  immutable: boolean
}

const TYPES = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
])

/**
 * Where `npm run build` puts the dashboard: `dist/dashboard` of the package
 * root, the first directory above this module with a package.json. The
 * module sits at different depths in src/, dist/ and the bundled CLI.
 */
export const findDashboardDir = (from: string = fileURLToPath(import.meta.url)): string => {
  let dir = dirname(from)
  for (let up = 0; up < 8; up++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'dashboard')
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return join(dirname(from), 'dashboard')
}

/**
 * Reads the built dashboard (index.html and its hashed script and style) into
 * memory once, so serving it never touches the disk and no request path can
 * name a file outside it. Resolves to an empty map when it was not built.
 *
 * @example
 * const assets = await loadDashboardAssets()
 * assets.get('index.html')?.body
 */
export const loadDashboardAssets = async (
  dir: string = findDashboardDir(),
): Promise<Map<string, DashboardAsset>> => {
  const names = await readdir(dir).catch(() => [] as string[])
  // Read together (a server awaits them before it listens: issue 20, start-up), kept in order.
  const read = await Promise.all(
    names.map(async (name) => {
      const type = TYPES.get(name.slice(name.lastIndexOf('.')))
      if (type === undefined) return undefined
      const asset: DashboardAsset = {
        contentType: type,
        body: await readFile(join(dir, name)),
        immutable: name !== 'index.html',
      }
      return [name, asset] as const
    }),
  )
  return new Map(read.filter((entry) => entry !== undefined))
}
