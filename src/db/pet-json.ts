import type { Pet } from '../contract/pet.js'

/**
 * Where a created record carries its JSON (made once, for its 201, and kept:
 * a record never changes). Not enumerable: JSON.stringify and @msw/data never see it.
 */
export const PET_JSON: unique symbol = Symbol('petstore-sandbox.json')

/**
 * `JSON.stringify(pet)` for a Pet as the store makes it (its four fields in this
 * order; integers, a name, a status word), written as a template: only the name
 * needs JSON's escaping (half the time of serializing the object, decision 0039).
 * A test holds it equal to `JSON.stringify` for every kind of name.
 *
 * @example
 * petJsonOf({ id: 1, name: 'Rex', categoryId: 2, status: 'available' })
 * // '{"id":1,"name":"Rex","categoryId":2,"status":"available"}'
 */
export const petJsonOf = (pet: Pet): string =>
  `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId},"status":"${pet.status}"}`

// Records loaded in bulk (shared, frozen, maybe a million) get theirs when first listed.
const cache = new WeakMap<Pet, string>()

/**
 * A pet's JSON, made once per stored record: a list page or getPet answers
 * with text it has already written (no per-request serialization).
 *
 * @example
 * petJson(pet) // '{"id":1,"name":"Rex","categoryId":2,"status":"available"}'
 */
export const petJson = (pet: Pet): string => {
  const own = (pet as Pet & { [PET_JSON]?: string })[PET_JSON]
  if (own !== undefined) return own
  let json = cache.get(pet)
  if (json === undefined) {
    json = JSON.stringify(pet)
    cache.set(pet, json)
  }
  return json
}

/**
 * A page of pets as a JSON array, from each pet's cached JSON.
 *
 * @example
 * petsJson([a, b]) // '[{"id":1,…},{"id":2,…}]'
 */
export const petsJson = (pets: readonly Pet[]): string => {
  if (pets.length === 0) return '[]'
  let json = `[${petJson(pets[0] as Pet)}`
  for (let i = 1; i < pets.length; i++) json += `,${petJson(pets[i] as Pet)}`
  return `${json}]`
}
