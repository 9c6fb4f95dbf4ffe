import { noAnswer, type ShapeFault } from './fault-answer.js'

/** The connection closes after the request with no byte of answer. */
export const emptyResponse: ShapeFault = () => noAnswer()
