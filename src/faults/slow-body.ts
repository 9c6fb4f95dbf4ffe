import { cutBody, type ShapeFault } from './fault-answer.js'

/** The bytes a second of `slow-body` without `__bandwidth`. */
export const SLOW_BODY_BYTES_PER_SECOND = 1_024

/** The whole answer, its body sent at the setting's bytes a second (default 1,024). */
export const slowBody: ShapeFault = (answer) =>
  cutBody(answer, (bytes) => ({
    body: bytes,
    end: 'complete',
    bytesPerSecond: answer.setting ?? SLOW_BODY_BYTES_PER_SECOND,
  }))
