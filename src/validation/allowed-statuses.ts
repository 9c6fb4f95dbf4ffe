import type { ContractOperationId } from '../contract/operation-ids.js'
import { isContractOperationId } from '../contract/operation-ids.js'

/**
 * The statuses each operation answers with (the spec's, and this contract's
 * additions: 400 for bad parameters, 413, 410 after the sunset, 500/503 from
 * scenarios, 507, 409 store_full with accounts). A test checks it against the OpenAPI document. 405 is not
 * here: a request answered 405 matched no operation.
 */
export const OPERATION_STATUSES: Readonly<Record<ContractOperationId, ReadonlySet<number>>> = {
  listPets: new Set([200, 400, 401, 429, 500, 503]),
  createPet: new Set([201, 400, 401, 409, 413, 429, 500, 503, 507]),
  getPet: new Set([200, 400, 401, 404, 410, 429, 500, 503]),
}

// What the pipeline itself answers an added operation with (decision 0042): a
// key's 401 and 429, a scenario's 500 and 503; a public one has no key to refuse.
const ADDED_KEY_STATUSES: ReadonlySet<number> = new Set([401, 429, 500, 503])
const ADDED_PUBLIC_STATUSES: ReadonlySet<number> = new Set([500, 503])

/**
 * The statuses an operation of a route table answers with: the contract's
 * table for its own, an added operation's `statuses` with what the pipeline
 * adds (decision 0042).
 *
 * @example
 * statusesOf({ id: 'GET /categories', statuses: [200] }) // Set {200, 401, 429, 500, 503}
 */
export const statusesOf = (operation: {
  id: string
  access?: 'key' | 'public' | undefined
  statuses?: readonly number[] | undefined
}): ReadonlySet<number> => {
  if (isContractOperationId(operation.id)) return OPERATION_STATUSES[operation.id]
  const base = operation.access === 'public' ? ADDED_PUBLIC_STATUSES : ADDED_KEY_STATUSES
  return new Set([...(operation.statuses ?? []), ...base])
}

/**
 * Statuses any request may get from the HTTP layer before an operation runs
 * (contract §15: 414, 417, 431, 501) or from a gateway in front of the
 * service (502, 504).
 */
export const HTTP_LAYER_STATUSES: ReadonlySet<number> = new Set([414, 417, 431, 501, 502, 504])
