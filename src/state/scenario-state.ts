import type { NewPet } from '../contract/pet.js'
import { PetStore } from '../db/pet-store.js'
import { DEFAULT_PET_COUNT, DEFAULT_SEED, seedPets } from '../db/seed-pets.js'
import { createSeededRandom } from '../scenarios/create-seeded-random.js'
import type { Scenario } from '../scenarios/define-scenario.js'

export interface ScenarioStateOptions {
  /** The sandbox's seed: of its seeded pets and of every scenario's `random()` without its own. */
  seed?: number | undefined
  /** How many pets the sandbox seeds. */
  pets?: number | undefined
  /** Told about each scenario store once it is built (so its changes can be followed). */
  onBuild?: ((scenario: Scenario, store: PetStore) => void) | undefined
}

/** What a sandbox keeps per scenario: its own store and its random stream. */
export interface ScenarioState {
  /** The scenario's own store (built on first use, then cached), or undefined when it uses the default store. */
  store(scenario: Scenario): Promise<PetStore> | undefined
  /** The next number of the scenario's seeded stream. */
  random(scenario: Scenario): number
  /** Drops the scenario stores and rewinds every stream. */
  reset(): void
}

// Only the NewPet fields: an `id` in a scenario's pets must not override the store's ids.
const toNewPet = ({ name, categoryId, status }: NewPet): NewPet => ({ name, categoryId, status })

const buildStore = async (pets: readonly NewPet[]): Promise<PetStore> => {
  const store = new PetStore()
  for (const pet of pets) await store.create(toNewPet(pet))
  return store
}

/**
 * The per-sandbox state behind scenarios, so that scenario values themselves
 * stay immutable data shared by every sandbox.
 *
 * @example
 * const scenarioState = createScenarioState({ seed: 7 })
 * const store = await scenarioState.store(emptyScenario) // an empty PetStore, the same one until reset()
 */
export const createScenarioState = (options: ScenarioStateOptions = {}): ScenarioState => {
  const seed = options.seed ?? DEFAULT_SEED
  const storeContext = {
    seededPets: (count = options.pets ?? DEFAULT_PET_COUNT) => seedPets({ seed, count }),
  }
  let stores = new Map<string, Promise<PetStore>>()
  let streams = new Map<string, () => number>()
  return {
    store(scenario) {
      if (scenario.store === undefined) return undefined
      let store = stores.get(scenario.name)
      if (store === undefined) {
        // Cached as a promise, so concurrent first requests share one store.
        const building = buildStore(scenario.store(storeContext)).then((built) => {
          options.onBuild?.(scenario, built)
          return built
        })
        // A store that failed to build (a pet breaking the schema) is tried again next time.
        building.catch(() => {
          if (stores.get(scenario.name) === building) stores.delete(scenario.name)
        })
        stores.set(scenario.name, building)
        store = building
      }
      return store
    },
    random(scenario) {
      let stream = streams.get(scenario.name)
      if (stream === undefined) {
        stream = createSeededRandom(scenario.seed ?? seed, scenario.name)
        streams.set(scenario.name, stream)
      }
      return stream()
    },
    reset() {
      stores = new Map()
      streams = new Map()
    },
  }
}
