/** FNV-1a of a string: turns a scenario's name into a 32-bit number to mix into its seed. */
const hashName = (name: string): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/**
 * A small, fast seeded generator (mulberry32): the same seed and name give the
 * same numbers in [0, 1) on every run, machine and runtime. The name keeps the
 * streams of two scenarios with the same seed apart.
 *
 * @example
 * const random = createSeededRandom(7, 'flaky')
 * random() // always the same first number for (7, 'flaky')
 */
export const createSeededRandom = (seed: number, name = ''): (() => number) => {
  // Fold a safe integer (up to 53 bits) into 32, then mix in the name.
  let state = (Math.floor(seed / 2 ** 32) ^ seed ^ hashName(name)) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}
