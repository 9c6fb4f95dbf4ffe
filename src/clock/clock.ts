/**
 * The one clock of a sandbox. It follows a time source (by default `Date.now`,
 * which vitest's fake timers also control) until a test sets or advances it;
 * from then on it is frozen and moves only when told, so boundary tests are
 * exact. `useRealTime()` (and a sandbox reset) returns to the time source.
 * See docs/decisions/0002-clock.md.
 */
export interface SandboxClock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  /** Freeze the clock at this moment. */
  set(time: Date | number | string): void
  /** Freeze the clock at now + ms: 0 or more (to go back, `set` an earlier time). */
  advance(ms: number): void
  /** Follow the time source again. */
  useRealTime(): void
  /** True while the clock is set or advanced by hand. */
  readonly frozen: boolean
}

export interface ClockOptions {
  /** The time source; default `Date.now`. */
  source?: () => number
}

/** The largest distance from the epoch a Date can hold (ECMA-262 §21.4.1.1): ±100,000,000 days. */
export const MAX_CLOCK_MS = 8.64e15

const toEpochMs = (time: Date | number | string): number => {
  const ms =
    time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time)
  if (!Number.isFinite(ms)) {
    throw new TypeError(
      `Failed to set the sandbox clock: ${String(time)} is not a valid date. Pass a Date, epoch milliseconds or an ISO 8601 string.`,
    )
  }
  if (Math.abs(ms) > MAX_CLOCK_MS) {
    throw new TypeError(
      `Failed to set the sandbox clock: ${String(time)} is outside the Date range (±${MAX_CLOCK_MS} ms from 1970).`,
    )
  }
  return ms
}

/**
 * @example
 * const clock = createClock()
 * clock.set('2030-12-05T00:00:00Z')
 * clock.advance(60_000)
 */
export const createClock = (options: ClockOptions = {}): SandboxClock => {
  const source = options.source ?? (() => Date.now())
  let manual: number | undefined
  return {
    now: () => manual ?? source(),
    set(time) {
      manual = toEpochMs(time)
    },
    advance(ms) {
      if (!Number.isFinite(ms)) {
        throw new TypeError(
          `Failed to advance the sandbox clock: ${String(ms)} is not a finite number of milliseconds.`,
        )
      }
      // Advancing is forward (contract §3: advance, or set); back is a `set`, said in so many words.
      if (ms < 0) {
        throw new TypeError(
          `Failed to advance the sandbox clock by ${ms} ms: it only moves forward. To go back, set it to an earlier time.`,
        )
      }
      const next = (manual ?? source()) + ms
      // Outside the Date range every toISOString() would throw: refuse rather than break every request.
      if (!(Math.abs(next) <= MAX_CLOCK_MS)) {
        throw new TypeError(
          `Failed to advance the sandbox clock by ${ms} ms: the result is outside the Date range (±${MAX_CLOCK_MS} ms from 1970).`,
        )
      }
      manual = next
    },
    useRealTime() {
      manual = undefined
    },
    get frozen() {
      return manual !== undefined
    },
  }
}
