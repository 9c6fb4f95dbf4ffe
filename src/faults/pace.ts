/** A chunk at least this often while a body trickles (contract §19). */
const TICK_MS = 100

/** How a `slow-body` answer trickles: one chunk every `tickMs`, `due(n)` bytes sent after chunk n. */
export interface Pace {
  /** Ms between chunks: 100, or 1000/bandwidth below 10 bytes a second (a chunk cannot carry less than a byte). */
  tickMs: number
  /** How many bytes of `length` are sent once chunk `n` (1, 2, …) is out: at least one more each chunk. */
  due(n: number, sent: number, length: number): number
}

/**
 * The schedule of a body sent at `bytesPerSecond`, the same in every runtime
 * (docs/scenarios.md, the fault table): a chunk every 100 ms carrying what
 * the bandwidth allows by then, or, below 10 bytes a second, one byte every
 * 1000/bandwidth ms (`__bandwidth=1`: one byte a second).
 *
 * @example
 * pace(1) // { tickMs: 1000, due: (n) => n bytes }
 */
export const pace = (bytesPerSecond: number): Pace => {
  const tickMs = Math.max(TICK_MS, Math.ceil(1000 / bytesPerSecond))
  return {
    tickMs,
    due: (n, sent, length) =>
      Math.min(length, Math.max(sent + 1, Math.floor((bytesPerSecond * n * tickMs) / 1000))),
  }
}
