import { NewPetSchema } from '../contract/pet.js'
import { jsonResponse } from '../http/json-response.js'
import { readJson } from '../http/read-json.js'
import { defineOperation } from './operation.js'

/**
 * POST /pets (createPet): validates a NewPet, listing every problem in
 * `details`, and answers 201 with the stored Pet and its `Location`.
 */
export const createPet = defineOperation({
  id: 'createPet',
  method: 'POST',
  path: '/pets',
  async run({ request, url, store, settings }) {
    const newPet = readJson(request, NewPetSchema, {
      subject: 'The pet',
      notAnObject: 'The request body must be a JSON object (a NewPet).',
    })
    const pet = await store.create(newPet)
    return jsonResponse(201, pet, { Location: `${url.origin}${settings.basePath}/pets/${pet.id}` })
  },
})
