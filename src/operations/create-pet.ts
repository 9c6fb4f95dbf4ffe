import type { Pet } from '../contract/pet.js'
import { IdSpaceExhaustedError } from '../db/id-space-exhausted-error.js'
import { petJson } from '../db/pet-json.js'
import { ApiError } from '../http/api-error.js'
import { readJson } from '../http/read-json.js'
import { defineOperation } from './operation.js'

/**
 * POST /pets (createPet): validates a NewPet (under the fidelity settings:
 * `defaultStatus`, `nameMaxLength`, `unknownFields`, `maxBodyBytes`), listing
 * every problem in `details`, and answers 201 with the stored Pet and its `Location`.
 */
export const createPet = defineOperation({
  id: 'createPet',
  method: 'POST',
  path: '/pets',
  async run({ request, url, store, settings }) {
    const newPet = readJson(request, settings.newPetSchema, {
      subject: 'The pet',
      notAnObject: 'The request body must be a JSON object (a NewPet).',
      maxBodyBytes: settings.fidelity.maxBodyBytes,
    })
    let pet: Pet
    try {
      const created = store.create(newPet)
      pet = created instanceof Promise ? await created : created
    } catch (error) {
      if (error instanceof IdSpaceExhaustedError)
        throw new ApiError('id_space_exhausted', 'No pet id below 2^53 is left; reset the sandbox.')
      throw error
    }
    return {
      status: 201,
      headers: {
        'Content-Type': 'application/json',
        Location: `${url.origin}${settings.basePath}/pets/${pet.id}`,
      },
      body: petJson(pet),
    }
  },
})
