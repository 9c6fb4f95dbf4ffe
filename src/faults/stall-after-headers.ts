import { cutBody, type ShapeFault } from './fault-answer.js'

/** The hold of `stall-after-headers` without `__delay`, in ms. */
export const STALL_MS = 30_000

/** The status line and headers, then no byte for the setting's ms (default 30,000), then the connection is destroyed. */
export const stallAfterHeaders: ShapeFault = (answer) =>
  cutBody(answer, () => ({
    body: new Uint8Array(0),
    end: 'stall',
    holdMs: answer.setting ?? STALL_MS,
  }))
