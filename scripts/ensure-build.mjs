// Builds dist/ when it is missing or older than what it is built from. The
// test run (vitest globalSetup) and `npm run bench` call it, so neither needs
// an install script: the package has no `prepare` (npm 11 warns every user
// about a dependency's install scripts), and `prepack` builds what is published.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** Written last by scripts/build.mjs: its time is the build's. */
const STAMP = join(ROOT, '.build/meta.json')
const INPUTS = ['src', 'scripts', 'openapi', 'package.json', 'tsconfig.json', 'tsconfig.build.json']

const newest = (path) => {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let time = stat.mtimeMs
  for (const entry of readdirSync(path)) time = Math.max(time, newest(join(path, entry)))
  return time
}

const builtAt = () => {
  try {
    return statSync(STAMP).mtimeMs
  } catch {
    return -1
  }
}

/** Runs `node scripts/build.mjs` unless dist/ is newer than every input; returns whether it built. */
export const ensureBuild = () => {
  const inputsAt = Math.max(...INPUTS.map((input) => newest(join(ROOT, input))))
  if (builtAt() >= inputsAt) return false
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  return true
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild()
