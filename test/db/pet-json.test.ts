import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PET_STATUSES, type Pet, PetSchema } from '../../src/contract/pet.js'
import { petJsonOf, petsJson } from '../../src/db/pet-json.js'

const pets = fc.record({
  id: fc.oneof(fc.integer({ min: 1 }), fc.maxSafeInteger()),
  // Any UTF-16 text, lone surrogates and control characters included: JSON's escaping is the point.
  name: fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string()),
  categoryId: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  status: fc.constantFrom(...PET_STATUSES),
})

describe('petJsonOf', () => {
  it('writes what JSON.stringify writes for a pet the store makes', () => {
    fc.assert(
      fc.property(pets, (pet: Pet) => {
        // The store's own field order: id, name, categoryId, status.
        const made = { id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status }
        expect(petJsonOf(made)).toBe(JSON.stringify(made))
      }),
      { numRuns: 5_000 },
    )
  })

  it("writes every field of the contract's Pet, in the schema's order (a new field fails here)", () => {
    const fields = Object.keys(PetSchema.shape)
    const pet = Object.fromEntries(
      fields.map((field, i) => [
        field,
        field === 'status' ? 'pending' : field === 'name' ? 'Rex' : i + 1,
      ]),
    ) as Pet
    const written = JSON.parse(petJsonOf(pet)) as Record<string, unknown>
    expect(Object.keys(written)).toEqual(fields)
    expect(written).toEqual(pet)
  })

  it('escapes quotes, backslashes, control characters and lone surrogates as JSON does', () => {
    for (const name of [
      '"Rex"',
      'a\\b',
      'tab\there',
      '\u0000\u001f',
      '\ud800',
      'Zoë 🐈',
      '</script>',
    ])
      expect(petJsonOf({ id: 1, name, categoryId: -0, status: 'sold' })).toBe(
        JSON.stringify({ id: 1, name, categoryId: -0, status: 'sold' }),
      )
  })

  it('is what a page is made of', () => {
    const page: Pet[] = [
      { id: 1, name: 'A', categoryId: 1, status: 'available' },
      { id: 2, name: 'B"', categoryId: 2, status: 'pending' },
    ]
    expect(petsJson(page)).toBe(JSON.stringify(page))
  })
})
