import { createRouter } from '../http/router.js'
import { createPet } from './create-pet.js'
import { getPet } from './get-pet.js'
import { listPets } from './list-pets.js'
import type { Operation } from './operation.js'

/** Every operation of the contract. A new one is a file of its own and a line here. */
export const OPERATIONS: readonly Operation[] = [listPets, createPet, getPet]

/** The contract's routes below the base path, compiled once (every sandbox without added operations shares it). */
export const API_ROUTER = OPERATIONS.reduce(
  (router, operation) => router.add(operation.method, operation.path, operation),
  createRouter<Operation>(),
)
