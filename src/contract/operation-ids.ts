/**
 * The operations of the spec, by their `operationId`. The operations layer
 * implements them; the response validator and the journal name them.
 */
export const OPERATION_IDS = ['listPets', 'createPet', 'getPet'] as const

/** Operation ids of the spec. */
export type OperationId = (typeof OPERATION_IDS)[number]
