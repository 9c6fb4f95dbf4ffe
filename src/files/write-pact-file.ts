import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { mergePacts } from '../pact/merge-pacts.js'
import type { PactExport, PactOptions } from '../pact/pact-document.js'
import { isProcessRunning } from './is-process-running.js'
import { writeFileAtomically } from './write-file-atomically.js'

/** Anything with the sandbox's `pact()`: a sandbox of any runtime, or a session's controls. */
export interface PactSource {
  pact(options: PactOptions): Promise<PactExport>
}

/** `writePact`'s options: the pact's names, and the folder of the file. */
export interface WritePactOptions extends PactOptions {
  /** The folder of the pact file (`pacts`), made when missing. */
  dir: string
}

/**
 * How long a writer waits for another's lock, and when a lock is left over
 * from a crash (its writer's process gone, or older than a minute): the wait
 * outlasts the takeover, so a crashed writer never fails the others.
 */
const LOCK_WAIT_MS = 90_000
const LOCK_STALE_MS = 60_000
const LOCK_RETRY_MS = 10

/** The longest file name most file systems take, in bytes (the lock file's included). */
const NAME_MAX_BYTES = 255

/** A name as a file name: what is not a letter, digit, `.`, `_` or `-` becomes `_`. */
const fileNameOf = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_')

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Whether the lock is a crashed writer's: its process (the id written in it)
 * is gone, or it is older than a minute. A lock whose id is not written yet
 * is a writer taking it, judged by its age alone.
 */
const isStale = async (lock: string): Promise<boolean> => {
  const [info, text] = await Promise.all([
    stat(lock).catch(() => undefined),
    readFile(lock, 'utf8').catch(() => ''),
  ])
  if (info === undefined) return false
  if (Date.now() - info.mtimeMs > LOCK_STALE_MS) return true
  const pid = Number(text)
  return /^[0-9]+$/.test(text) && pid !== process.pid && !isProcessRunning(pid)
}

/**
 * Runs `work` holding `<file>.lock` (made with O_EXCL): writers in other
 * processes (vitest's workers, one per test file) wait their turn. A lock
 * whose writer's process is gone, or older than a minute, is a crashed
 * writer's and is taken over.
 */
const withLock = async <T>(file: string, work: () => Promise<T>): Promise<T> => {
  const lock = `${file}.lock`
  const started = Date.now()
  for (;;) {
    try {
      const handle = await open(lock, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (await isStale(lock)) await unlink(lock).catch(() => {})
      else if (Date.now() - started > LOCK_WAIT_MS)
        throw new Error(
          `Failed to write the pact: ${lock} has been held for over ${LOCK_WAIT_MS / 1000} s. Remove it if no test run is writing.`,
        )
      else await sleep(LOCK_RETRY_MS)
    }
  }
  try {
    return await work()
  } finally {
    await unlink(lock).catch(() => {})
  }
}

/**
 * Writes the pact of `source`'s journal into `<dir>/<consumer>-<provider>.json`,
 * merged with the interactions already there, as Pact's own libraries write a
 * test's pact: call it after each test, before `reset()` empties the journal,
 * and the suite (every test file, every worker) ends with one file. The merge
 * holds a lock file, and the file is replaced atomically. Resolves what
 * `pact()` resolved for this journal (`problems` and `skipped` of this test)
 * and the file's path. Remove the file before a run (a deleted test's
 * interactions would stay in it otherwise), as with Pact's libraries.
 *
 * @example
 * afterEach(async () => {
 *   await writePact(sandbox, { consumer: 'web-app', provider: 'pet-store', dir: 'pacts' })
 *   await sandbox.reset()
 * })
 */
export const writePact = async (
  source: PactSource,
  options: WritePactOptions,
): Promise<PactExport & { file: string }> => {
  const { dir, consumer, provider } = options ?? ({} as WritePactOptions)
  if (typeof dir !== 'string' || dir === '')
    throw new TypeError('Failed to write the pact: dir must name a folder, e.g. "pacts".')
  const exported = await source.pact({ consumer, provider })
  await mkdir(dir, { recursive: true })
  const name = `${fileNameOf(consumer)}-${fileNameOf(provider)}.json`
  if (Buffer.byteLength(`${name}.lock`) > NAME_MAX_BYTES)
    throw new TypeError(
      `Failed to write the pact: its file name (${name.length} characters, from the consumer and provider names) is longer than file systems take (${NAME_MAX_BYTES - '.lock'.length}). Use shorter names.`,
    )
  const file = join(dir, name)
  await withLock(file, async () => {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    let existing: unknown
    if (text !== undefined)
      try {
        existing = JSON.parse(text)
      } catch {
        throw new TypeError(
          `Failed to write the pact: ${file} is not JSON. Remove it, or choose another dir.`,
        )
      }
    const merged = mergePacts(existing, exported.pact)
    await writeFileAtomically(file, `${JSON.stringify(merged, null, 2)}\n`)
  })
  return { ...exported, file }
}
