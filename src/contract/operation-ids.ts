/**
 * The operations of the spec, by their `operationId`. The operations layer
 * implements them; the response validator and the journal name them.
 */
export const OPERATION_IDS = ['listPets', 'createPet', 'getPet'] as const

/** Operation ids of the spec (the contract's three). */
export type ContractOperationId = (typeof OPERATION_IDS)[number]

/**
 * The id of an operation a sandbox answers: the contract's (typed), or one
 * added at its creation (decision 0042): an own handler's `GET /categories`,
 * an OpenAPI document's `operationId`. The `string & {}` keeps the
 * contract's ids offered by completion.
 */
export type OperationId = ContractOperationId | (string & {})

/**
 * Whether an id is one of the contract's own operations.
 *
 * @example
 * isContractOperationId('getPet') // true
 * isContractOperationId('GET /categories') // false
 */
export const isContractOperationId = (id: string): id is ContractOperationId =>
  id === 'listPets' || id === 'createPet' || id === 'getPet'
