import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

// Issue 37 item 7: package.json promises Node >= 20.19, so every package a user installs with
// it must run there: the runtime `dependencies`, and theirs, as npm installed them. A
// dependency whose `engines.node` leaves out part of the project's range makes every install
// warn EBADENGINE (and `engine-strict` refuse it). Read from node_modules, the versions the
// lock file installs; a package without `engines.node` claims nothing and passes.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

interface Manifest {
  name: string
  version: string
  engines?: { node?: string }
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

const read = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8')) as Manifest

/** Where Node finds `name` from a package's folder: its own node_modules, then each one above. */
const installed = (name: string, from: string): string | undefined => {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json')
    if (existsSync(file)) return file
    if (dir === ROOT || dirname(dir) === dir) return undefined
  }
}

/** Every runtime dependency as installed, with who pulled it in; optional ones only when present. */
const runtimeTree = (): Map<string, { manifest: Manifest; via: string }> => {
  const seen = new Map<string, { manifest: Manifest; via: string }>()
  const visit = (dir: string, manifest: Manifest, via: string): void => {
    const wanted = [
      ...Object.keys(manifest.dependencies ?? {}).map((name) => [name, true] as const),
      ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => [name, false] as const),
    ]
    for (const [name, required] of wanted) {
      const file = installed(name, dir)
      if (file === undefined) {
        if (required) throw new Error(`${name} (needed by ${via}) is not installed: run npm ci`)
        continue
      }
      if (seen.has(file)) continue
      const child = read(file)
      seen.set(file, { manifest: child, via })
      visit(dirname(file), child, `${via} > ${child.name}@${child.version}`)
    }
  }
  visit(ROOT, read(join(ROOT, 'package.json')), 'petstore-sandbox')
  return seen
}

describe('the Node versions of the runtime dependencies', () => {
  const project = read(join(ROOT, 'package.json')).engines?.node ?? ''

  it('has a Node range of its own, and finds the dependencies installed', () => {
    expect(semver.validRange(project)).not.toBeNull()
    const names = [...runtimeTree().values()].map((d) => d.manifest.name)
    expect(names).toEqual(expect.arrayContaining(['zod', 'ajv', 'yaml', 'ret']))
  })

  it("runs on every Node the project's engines.node allows, each one of them", () => {
    const narrower = [...runtimeTree().values()]
      .filter(({ manifest }) => {
        const range = manifest.engines?.node
        return range !== undefined && !semver.subset(project, range)
      })
      .map(
        ({ manifest, via }) =>
          `${manifest.name}@${manifest.version} wants node ${manifest.engines?.node} (via ${via})`,
      )
    // Today: @apidevtools/json-schema-ref-parser@16.0.6 wants >= 22.19 (until its replacement lands).
    expect(narrower, `the project says node ${project}`).toEqual([])
  })
})
