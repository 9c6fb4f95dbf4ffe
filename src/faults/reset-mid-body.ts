import { cutBody, firstHalf, type ShapeFault } from './fault-answer.js'

/**
 * The pause, in ms, between the half body and the reset without `__delay`.
 * A reset that reaches a client before it read the bytes is reported by
 * Node's sockets as a clean end (libuv reads the data and, seeing the
 * hang-up, stops there): a busy client would see `truncated-body`. The pause
 * lets it read first (decision 0055).
 */
export const RESET_PAUSE_MS = 100

/** The status line, the headers and the first half of the body, then (after the setting's pause) a TCP reset. */
export const resetMidBody: ShapeFault = (answer) =>
  cutBody(answer, (bytes) => ({
    body: firstHalf(bytes),
    end: 'reset',
    holdMs: answer.setting ?? RESET_PAUSE_MS,
  }))
