import { type RateSeries, STATUS_CLASSES, type StatusClass } from './dashboard-types.js'

export interface RateSeriesCounter {
  /** Counts one answer of this class in the current second. */
  count(statusClass: StatusClass): void
  /** The last `seconds` seconds, oldest first. */
  read(): RateSeries
}

/**
 * Requests per second by status class over the last `seconds` seconds, in
 * fixed memory (a ring of counters per class). Real time, not the sandbox
 * clock: a frozen or moved sandbox clock would pile every request into one
 * second, and the chart shows traffic as it arrives.
 *
 * @example
 * const series = createRateSeries({ seconds: 300, now: () => Date.now() })
 * series.count('2xx')
 */
export const createRateSeries = (options: {
  seconds: number
  now: () => number
}): RateSeriesCounter => {
  const { seconds, now } = options
  const rings = Object.fromEntries(
    STATUS_CLASSES.map((c) => [c, new Array<number>(seconds).fill(0)]),
  ) as Record<StatusClass, number[]>
  /** The epoch second the ring's newest slot holds. */
  let newest = Math.floor(now() / 1000)

  const advance = (): number => {
    const second = Math.floor(now() / 1000)
    // Clear the slots of the seconds that passed without a request (all of them after a long gap).
    const passed = Math.min(Math.max(second - newest, 0), seconds)
    for (let s = 1; s <= passed; s++) {
      for (const c of STATUS_CLASSES) rings[c][(newest + s) % seconds] = 0
    }
    if (second > newest) newest = second
    return newest
  }

  return {
    count(statusClass) {
      const second = advance()
      rings[statusClass][second % seconds] = (rings[statusClass][second % seconds] ?? 0) + 1
    },
    read() {
      const end = advance()
      const counts = {} as Record<StatusClass, number[]>
      for (const c of STATUS_CLASSES) {
        const out = new Array<number>(seconds)
        for (let i = 0; i < seconds; i++) out[i] = rings[c][(end - seconds + 1 + i) % seconds] ?? 0
        counts[c] = out
      }
      return { end, counts }
    },
  }
}
