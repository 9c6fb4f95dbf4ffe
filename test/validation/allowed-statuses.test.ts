import { describe, expect, it } from 'vitest'
import document from '../../openapi/petstore-sandbox.openapi.json' with { type: 'json' }
import { ERROR_CODES } from '../../src/contract/error-codes.js'
import { OPERATION_IDS } from '../../src/contract/operation-ids.js'
import { HTTP_LAYER_STATUSES, OPERATION_STATUSES } from '../../src/validation/allowed-statuses.js'

const documented = (operationId: string): number[] => {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, unknown>)) {
      const { operationId: id, responses } = operation as {
        operationId?: string
        responses?: Record<string, unknown>
      }
      if (id === operationId && responses !== undefined)
        return Object.keys(responses).map(Number).sort()
    }
  }
  return []
}

// Beyond an operation's own statuses, the document lists what the server's HTTP layer or a
// gateway answers (HTTP_LAYER_STATUSES), 405 (no operation matched), and the answers of the
// sandbox's modes on any request: 404 replay_miss and 413 payload_too_large.
const BESIDES = new Set([
  405,
  ERROR_CODES.replay_miss,
  ERROR_CODES.payload_too_large,
  ...HTTP_LAYER_STATUSES,
])

describe('the statuses the validator allows', () => {
  it.each(OPERATION_IDS)(
    'are the OpenAPI document’s for %s, less the layer’s and the modes’',
    (id) => {
      const own = [...OPERATION_STATUSES[id]].sort()
      const statuses = documented(id)
      expect(statuses).toEqual(expect.arrayContaining(own))
      expect(statuses.filter((s) => !OPERATION_STATUSES[id].has(s) && !BESIDES.has(s))).toEqual([])
    },
  )
})
