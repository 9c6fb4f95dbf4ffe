import type { OperationId } from '../contract/operation-ids.js'

/**
 * The statuses each operation answers with (the spec's, and this contract's
 * additions: 400 for bad parameters, 413, 410 after the sunset, 500/503 from
 * scenarios, 507). A test checks it against the OpenAPI document. 405 is not
 * here: a request answered 405 matched no operation.
 */
export const OPERATION_STATUSES: Readonly<Record<OperationId, ReadonlySet<number>>> = {
  listPets: new Set([200, 400, 401, 429, 500, 503]),
  createPet: new Set([201, 400, 401, 413, 429, 500, 503, 507]),
  getPet: new Set([200, 400, 401, 404, 410, 429, 500, 503]),
}

/**
 * Statuses any request may get from the HTTP layer before an operation runs
 * (contract §15: 414, 417, 431, 501) or from a gateway in front of the
 * service (502, 504).
 */
export const HTTP_LAYER_STATUSES: ReadonlySet<number> = new Set([414, 417, 431, 501, 502, 504])
