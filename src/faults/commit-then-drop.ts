import type { ShapeFault } from './fault-answer.js'

/**
 * The operation ran and its effect stays; the connection then fails as in
 * `network-error` (no byte of answer). The journal keeps the answer that was
 * made (a 201 with its pet) and says it was not delivered.
 */
export const commitThenDrop: ShapeFault = (answer) => ({
  delivery: { head: null, body: new Uint8Array(0), end: 'close' },
  journal: { status: answer.status, headers: answer.headers, body: answer.body },
})
