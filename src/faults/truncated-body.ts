import { cutBody, firstHalf, type ShapeFault } from './fault-answer.js'

/** The headers with the whole body's `Content-Length`, the first half of the body, then a clean close. */
export const truncatedBody: ShapeFault = (answer) =>
  cutBody(answer, (bytes) => ({ body: firstHalf(bytes), end: 'close' }))
