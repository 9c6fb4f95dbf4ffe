/**
 * Issue 31 item 7: `report --from` and `pact --from` over a long HAR. Writes a
 * synthetic HAR (test/support/synthetic-har.ts: 50 sessions, every rule's
 * pattern, Unicode bodies) to a temporary folder, runs the built CLI's
 * `report --from FILE --json` and `pact --from FILE --out FILE` in child
 * processes, and prints each one's peak RSS (the child's own `maxRSS`) as a
 * ratio to the file's size, and its time. With `old`, the whole-text reading
 * the commands did before (bench/har-reader-whole-text.ts, tsx as a loader) is
 * measured in the same run as the baseline.
 *
 *   npm run bench -- har-reader                 # 1,000,000 entries, the commands only
 *   npm run bench -- har-reader:100000,old      # 100,000 entries, and the old reading
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeSyntheticHar } from '../test/support/synthetic-har.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'dist/cli/petstore-sandbox.js')
const OLD = join(ROOT, 'bench/har-reader-whole-text.ts')

/** Runs a node child, returns its exit code, peak RSS (bytes) and wall time (ms). */
const measure = async (
  dir: string,
  args: readonly string[],
): Promise<{ code: number | null; rss: number; ms: number }> => {
  const rssFile = join(dir, 'max-rss')
  rmSync(rssFile, { force: true })
  // Written when the child exits: its own peak resident set, as the kernel counted it.
  const hook = join(dir, 'max-rss.mjs')
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs'\nprocess.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS * 1024)))\n`,
  )
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', hook, ...args], {
    stdio: 'ignore',
    cwd: ROOT,
  })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  const ms = performance.now() - started
  return { code, rss: Number(readFileSync(rssFile, 'utf8')), ms }
}

const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(0)} MB`

export const run = async (parts?: readonly string[]): Promise<void> => {
  const count = Number(parts?.find((p) => /^\d+$/.test(p)) ?? 1_000_000)
  const withOld = parts?.includes('old') === true
  const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-bench-har-'))
  try {
    const file = join(dir, 'long.har')
    const size = await writeSyntheticHar(file, count)
    console.log(`A HAR of ${count.toLocaleString('en')} entries, 50 sessions: ${mb(size)}.\n`)
    const cases: [string, string[]][] = [
      ['report --from (streamed)', [CLI, 'report', '--from', file, '--json']],
      ['pact --from (streamed)', [CLI, 'pact', '--from', file, '--out', join(dir, 'pact.json')]],
    ]
    if (withOld)
      cases.push(
        // tsx as a loader, not its CLI (which runs the script in a second process).
        ['report, whole-text reading (before)', ['--import', 'tsx', OLD, 'report', file]],
        ['pact, whole-text reading (before)', ['--import', 'tsx', OLD, 'pact', file]],
      )
    // What node itself takes, so the ratio is of what the reading added.
    const idle = (await measure(dir, ['-e', ''])).rss
    console.log(`An idle node process peaks at ${mb(idle)}.\n`)
    console.log('| run | exit | peak RSS | RSS / file | (RSS - idle) / file | time |')
    console.log('|---|---|---|---|---|---|')
    for (const [name, args] of cases) {
      const { code, rss, ms } = await measure(dir, args)
      console.log(
        `| ${name} | ${code} | ${mb(rss)} | ${(rss / size).toFixed(2)}x | ${((rss - idle) / size).toFixed(2)}x | ${(ms / 1000).toFixed(1)} s |`,
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
