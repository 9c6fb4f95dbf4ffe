import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The package's runtime dependencies and its peers, as package.json names them. */
const DEPENDENCIES: string[] = (() => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>
    peerDependencies?: Record<string, string>
  }
  return [
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.dependencies ?? {}),
  ]
})()

/**
 * A fresh project with this package installed as a user gets it: `npm pack`
 * (what `files` publishes, from the current dist/), unpacked into
 * node_modules/petstore-sandbox, its dependencies (and `extra` ones, vitest
 * say) linked from this repository's node_modules: no network. Returns its folder.
 *
 * @example
 * const project = installPacked('petstore-sandbox-modules-')
 */
export const installPacked = (prefix: string, extra: string[] = []): string => {
  const project = mkdtempSync(join(tmpdir(), prefix))
  // --ignore-scripts: dist is already built (prepack would build it again).
  const tarball = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', project],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .pop() as string
  const installed = join(project, 'node_modules/petstore-sandbox')
  mkdirSync(installed, { recursive: true })
  execFileSync('tar', ['-xzf', join(project, tarball), '-C', installed, '--strip-components=1'])
  for (const name of [...DEPENDENCIES, ...extra]) {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'dir')
  }
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  )
  return project
}
