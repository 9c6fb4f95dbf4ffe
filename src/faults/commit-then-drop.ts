import type { ShapeFault } from './fault-answer.js'

/**
 * How `commit-then-drop` ends the connection, by its setting's number
 * (`__drop`): a clean close (FIN, the default: as `network-error` does on the
 * wire) or a reset (RST).
 */
export const DROP_ENDS = ['close', 'reset'] as const

/**
 * The operation ran and its effect stays; the connection then fails as in
 * `network-error` (no byte of answer): closed, or reset when the setting is
 * 1 (`__drop=reset`). The journal keeps the answer that was made (a 201 with
 * its pet) and says it was not delivered.
 */
export const commitThenDrop: ShapeFault = (answer) => ({
  delivery: {
    head: null,
    body: new Uint8Array(0),
    end: DROP_ENDS[answer.setting === 1 ? 1 : 0],
  },
  journal: { status: answer.status, headers: answer.headers, body: answer.body },
})
