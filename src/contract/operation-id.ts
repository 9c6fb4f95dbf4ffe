/** The operations of the spec, by their OpenAPI `operationId`. */
export type OperationId = 'listPets' | 'createPet' | 'getPet'
