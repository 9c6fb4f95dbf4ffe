import type { Pet } from '../contract/pet.js'
import { IdSpaceExhaustedError } from '../db/id-space-exhausted-error.js'
import { petJson } from '../db/pet-json.js'
import { ApiError } from '../http/api-error.js'
import { type Awaitable, andThen } from '../http/awaitable.js'
import { readJson } from '../http/read-json.js'
import type { SandboxResponse } from '../http/types.js'
import { defineOperation } from './operation.js'

/** The store's "no id left" as the contract's error. */
const renameExhausted = (error: unknown): unknown =>
  error instanceof IdSpaceExhaustedError
    ? new ApiError('id_space_exhausted', 'No pet id below 2^53 is left; reset the sandbox.')
    : error

/**
 * POST /pets (createPet): validates a NewPet (under the fidelity settings:
 * `defaultStatus`, `nameMaxLength`, `unknownFields`, `maxBodyBytes`), listing
 * every problem in `details`, and answers 201 with the stored Pet and its `Location`.
 */
export const createPet = defineOperation({
  id: 'createPet',
  method: 'POST',
  path: '/pets',
  run({ request, url, store, settings }) {
    const newPet = readJson(request, settings.newPetSchema, {
      subject: 'The pet',
      notAnObject: 'The request body must be a JSON object (a NewPet).',
      maxBodyBytes: settings.fidelity.maxBodyBytes,
    })
    const created = (pet: Pet): SandboxResponse => ({
      status: 201,
      headers: {
        'Content-Type': 'application/json',
        Location: `${url.origin}${settings.basePath}/pets/${pet.id}`,
      },
      body: petJson(pet),
    })
    // Synchronous in memory (no microtask, decision 0039); a shared store's pet later.
    const create = (): Awaitable<SandboxResponse> => {
      let pet: Awaitable<Pet>
      try {
        pet = store.create(newPet)
      } catch (error) {
        throw renameExhausted(error)
      }
      if (pet instanceof Promise)
        return pet.then(created, (error: unknown) => {
          throw renameExhausted(error)
        })
      return created(pet)
    }
    const max = settings.maxPets
    if (max === undefined) return create()
    // Accounts (contract §22): a sandbox holds at most `max` pets.
    return andThen(store.list({ limit: 1 }), ({ total }) => {
      if (total >= max)
        throw new ApiError(
          'store_full',
          `This sandbox holds ${max} pets, its most. Reset it (POST /__sandbox/reset) to start over.`,
        )
      return create()
    })
  },
})
