import type { Pet } from '../contract/pet.js'

// A stored pet never changes (records are replaced, never edited), so its JSON is made once.
const cache = new WeakMap<Pet, string>()

/**
 * A pet's JSON, made once per stored record: a list page or getPet answers
 * with text it has already written (no per-request serialization).
 *
 * @example
 * petJson(pet) // '{"id":1,"name":"Rex","categoryId":2,"status":"available"}'
 */
export const petJson = (pet: Pet): string => {
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
