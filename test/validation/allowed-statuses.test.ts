import { describe, expect, it } from 'vitest'
import document from '../../openapi/petstore-sandbox.openapi.json' with { type: 'json' }
import { OPERATION_IDS } from '../../src/contract/operation-ids.js'
import { OPERATION_STATUSES } from '../../src/validation/allowed-statuses.js'

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

describe('the statuses the validator allows', () => {
  it.each(OPERATION_IDS)('are the OpenAPI document’s for %s (405: no operation)', (id) => {
    expect([...OPERATION_STATUSES[id]].sort()).toEqual(documented(id).filter((s) => s !== 405))
  })
})
