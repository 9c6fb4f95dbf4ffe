import { ApiError } from '../http/api-error.js'
import type { Violation } from '../journal/journal.js'
import { redactUrl } from '../journal/redact-secrets.js'
import { stripSandboxParams } from './build-upstream-request.js'

/**
 * 502 `upstream_contract_violation` (strict mode): the `spec.*` rules the
 * upstream's answer broke, each named, in the message and in `details`.
 *
 * @example
 * throw contractViolation(200, [{ rule: 'spec.list.body', message: '…' }])
 */
export const contractViolation = (status: number, broken: Violation[]): ApiError =>
  new ApiError(
    'upstream_contract_violation',
    `The upstream's ${status} answer broke the contract, so strict mode replaced it: ${broken
      .map((v) => `${v.rule} (${v.message})`)
      .join('; ')}`,
    { details: broken.map((v) => ({ field: v.rule, message: v.message })) },
  )

/**
 * 404 `replay_miss`: the recording has no answer for this request (named,
 * without the sandbox's own parameters, secrets redacted).
 *
 * @example
 * throw replayMiss('GET', url, index.answers)
 */
export const replayMiss = (method: string, url: URL, answers: number): ApiError => {
  const asked = `${method} ${redactUrl(`${url.pathname}${stripSandboxParams(url.search)}`)}`
  return new ApiError(
    'replay_miss',
    `The recording has no answer for ${asked} (it holds ${answers} answers to other requests). Record it, or start with --replay-fallback sandbox.`,
    { details: [{ field: 'request', message: asked }] },
  )
}
