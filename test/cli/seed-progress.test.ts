import { describe, expect, it } from 'vitest'
import { SEED_PROGRESS_MIN_PETS, showSeedProgress } from '../../src/cli/seed-progress.js'
import { seededSnapshot } from '../../src/db/pet-store.js'

const terminal = (isTTY: boolean) => {
  const written: string[] = []
  return { isTTY, written, write: (text: string) => written.push(text) }
}

describe('the CLI seed progress line', () => {
  it('counts up to 100% on a terminal, seeds into the cache the sandbox loads, and clears the line', () => {
    const tty = terminal(true)
    const done = showSeedProgress(
      { pets: SEED_PROGRESS_MIN_PETS, seed: 77, dataFile: undefined },
      tty,
    )
    expect(tty.written[0]).toBe('\r\u001b[2KSeeding 100,000 pets: 0%')
    expect(tty.written).toContain('\r\u001b[2KSeeding 100,000 pets: 50%')
    expect(tty.written.at(-1)).toBe('\r\u001b[2KSeeding 100,000 pets: 100%, indexing…')
    const percents = tty.written.slice(1, -1).map((t) => Number(/(\d+)%$/.exec(t)?.[1]))
    expect(percents).toEqual([...percents].sort((a, b) => a - b))
    expect(percents.length).toBe(100)
    // Already made: the sandbox's own seededSnapshot call gets this object, no second faker run.
    const before = tty.written.length
    const snapshot = seededSnapshot({ seed: 77, count: SEED_PROGRESS_MIN_PETS })
    expect(snapshot.pets).toHaveLength(SEED_PROGRESS_MIN_PETS)
    expect(seededSnapshot({ seed: 77, count: SEED_PROGRESS_MIN_PETS })).toBe(snapshot)
    done()
    expect(tty.written.length).toBe(before + 1)
    expect(tty.written.at(-1)).toBe('\r\u001b[2K')
  })

  it('prints nothing off a terminal, for a small count, or with a data file', () => {
    for (const [isTTY, pets, dataFile] of [
      [false, 1_000_000, undefined],
      [true, SEED_PROGRESS_MIN_PETS - 1, undefined],
      [true, undefined, undefined],
      [true, 1_000_000, './pets.json'],
    ] as const) {
      const out = terminal(isTTY)
      showSeedProgress({ pets, seed: 1, dataFile }, out)()
      expect(out.written).toEqual([])
    }
  })
})
