import { seededSnapshot } from '../db/pet-store.js'

/** Below this many pets seeding is quick enough to need no progress line. */
export const SEED_PROGRESS_MIN_PETS = 100_000

export interface SeedProgressOptions {
  pets: number | undefined
  seed: number | undefined
  /** With a data file the pets usually come from the file: no seeding to show. */
  dataFile: string | undefined
}

interface Terminal {
  isTTY?: boolean
  write(text: string): unknown
}

/**
 * On a terminal, seeds a large `--pets` count up front (into seededSnapshot's
 * cache, which the sandbox then loads) with a progress line, and returns a
 * function that clears the line once the sandbox is ready. Elsewhere (a pipe,
 * a file, a small count) it does nothing.
 *
 * @example
 * const done = showSeedProgress({ pets: 1_000_000, seed: undefined, dataFile: undefined }, process.stderr)
 * // … createSandboxServer(…), await app.sandbox.ready
 * done()
 */
export const showSeedProgress = (
  options: SeedProgressOptions,
  terminal: Terminal,
): (() => void) => {
  const { pets, seed, dataFile } = options
  if (terminal.isTTY !== true || dataFile !== undefined || (pets ?? 0) < SEED_PROGRESS_MIN_PETS)
    return () => {}
  const count = (pets ?? 0).toLocaleString('en-US')
  const line = (text: string) => terminal.write(`\r\u001b[2KSeeding ${count} pets: ${text}`)
  line('0%')
  seededSnapshot({
    seed,
    count: pets,
    onProgress: (done, total) => line(`${Math.floor((done / total) * 100)}%`),
  })
  line('100%, indexing…')
  return () => terminal.write('\r\u001b[2K')
}
