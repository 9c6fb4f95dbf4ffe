/**
 * Thrown (or rejected) by a store's `create` when no id up to 2^53 - 1 is
 * left; ids are never reused. createPet answers it with 507 `id_space_exhausted`.
 */
export class IdSpaceExhaustedError extends RangeError {
  override name = 'IdSpaceExhaustedError'
  constructor() {
    super('Failed to create a pet: no id below 2^53 is left.')
  }
}
