import { cutBody, firstHalf, type ShapeFault } from './fault-answer.js'

/** The status line, the headers and the first half of the body, then a TCP reset. */
export const resetMidBody: ShapeFault = (answer) =>
  cutBody(answer, (bytes) => ({ body: firstHalf(bytes), end: 'reset' }))
