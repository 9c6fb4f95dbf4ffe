import type { Finding } from '../finding.js'
import type { JudgedRequest } from '../judged-request.js'

/** A rule of contract §18: the session's requests in journal order in, its findings out. */
export type Rule = (requests: readonly JudgedRequest[]) => Finding[]
