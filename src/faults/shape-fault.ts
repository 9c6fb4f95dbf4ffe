import type { Fault, TransportFault } from '../http/types.js'
import { commitThenDrop } from './commit-then-drop.js'
import { emptyResponse } from './empty-response.js'
import type { FaultAnswer, ShapedAnswer, ShapeFault } from './fault-answer.js'
import { malformedJson } from './malformed-json.js'
import { proxyError } from './proxy-error.js'
import { resetMidBody } from './reset-mid-body.js'
import { slowBody } from './slow-body.js'
import { stallAfterHeaders } from './stall-after-headers.js'
import { truncatedBody } from './truncated-body.js'

/** The faults that shape bytes, by name; `network-error` and `timeout` send none and are the runtimes' own. */
const SHAPES: Readonly<Record<Exclude<Fault, 'network-error' | 'timeout'>, ShapeFault>> = {
  'reset-mid-body': resetMidBody,
  'truncated-body': truncatedBody,
  'stall-after-headers': stallAfterHeaders,
  'slow-body': slowBody,
  'malformed-json': malformedJson,
  'proxy-error': proxyError,
  'empty-response': emptyResponse,
  'commit-then-drop': commitThenDrop,
}

/** Faults that answer instead of the operation (it does not run); every other one shapes its answer. */
const INSTEAD_OF_THE_OPERATION: ReadonlySet<Fault> = new Set<TransportFault>([
  'network-error',
  'timeout',
  'empty-response',
  'proxy-error',
])

/**
 * True when the operation runs before the fault (its effect stays): the
 * body faults and `commit-then-drop`.
 *
 * @example
 * runsOperation('commit-then-drop') // true
 */
export const runsOperation = (fault: Fault): boolean => !INSTEAD_OF_THE_OPERATION.has(fault)

/**
 * Shapes an answer's bytes by the fault's name (contract §19), or undefined
 * for `network-error` and `timeout`, which send no byte and answer nothing.
 *
 * @example
 * shapeFault('truncated-body', { status: 200, headers, body, head: false, setting: undefined })
 */
export const shapeFault = (fault: Fault, answer: FaultAnswer): ShapedAnswer | undefined =>
  Object.hasOwn(SHAPES, fault) ? SHAPES[fault as keyof typeof SHAPES](answer) : undefined

/** Faults whose answer never reaches the client whole (its journal entry says `delivered: false`). */
export const UNDELIVERED_FAULTS: ReadonlySet<Fault> = new Set<Fault>([
  'network-error',
  'timeout',
  'empty-response',
  'commit-then-drop',
  'reset-mid-body',
  'truncated-body',
  'stall-after-headers',
])

/** Every fault's name, in the order of contract §8 and §19. */
export const FAULT_NAMES = [
  'network-error',
  'timeout',
  'reset-mid-body',
  'truncated-body',
  'stall-after-headers',
  'slow-body',
  'malformed-json',
  'proxy-error',
  'empty-response',
  'commit-then-drop',
] as const satisfies readonly Fault[]
