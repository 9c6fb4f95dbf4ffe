import { describe, expectTypeOf, it } from 'vitest'
import {
  type ContractOperationId,
  createSandbox,
  type JournalEntry,
  type OperationCoverage,
  type OperationId,
} from '../../src/index.js'

// Issue 29 item 3 (decision 0050): what a user reads of an operation is typed as the
// contract's three ids (for completion) and any string beyond them (an OpenAPI
// document's operationId, `METHOD /path` of an own handler).
describe('operation ids a user reads', () => {
  it('are the contract ids plus any string, in the journal and the coverage', () => {
    expectTypeOf<ContractOperationId>().toEqualTypeOf<'listPets' | 'createPet' | 'getPet'>()
    expectTypeOf<JournalEntry['operation']>().toEqualTypeOf<OperationId | null>()
    expectTypeOf<OperationCoverage['operation']>().toEqualTypeOf<OperationId>()
    expectTypeOf<'listCategories'>().toMatchTypeOf<OperationId>()
    expectTypeOf<'GET /store/inventory'>().toMatchTypeOf<OperationId>()
    expectTypeOf<OperationId>().toMatchTypeOf<string>()
  })

  it('take a document operation id in requests.expect without a cast', () => {
    const sandbox = createSandbox({ openapi: 'examples/openapi/petstore-extras.yaml' })
    expectTypeOf(sandbox.requests.expect).toBeCallableWith({ operation: 'listCategories' })
  })
})
