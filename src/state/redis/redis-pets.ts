import type { NewPet, Pet } from '../../contract/pet.js'
import { IdSpaceExhaustedError } from '../../db/id-space-exhausted-error.js'
import type { PetRecords } from '../../db/pet-records.js'
import { PetStore } from '../../db/pet-store.js'
import { seedPets } from '../../db/seed-pets.js'
import type { Scenario } from '../../scenarios/define-scenario.js'
import { StaleStateError } from '../stale-state.js'
import { CachedPets } from './cached-pets.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { CachedSession } from './redis-sessions.js'
import type { RedisStateContext } from './redis-state-context.js'

/**
 * Creates a pet: the next id of the store, atomically, appended to the store's
 * list (so the list stays in id order). ARGV: prefix, sid, store, seededCount,
 * petJsonWithoutId (the JSON object minus its opening brace), maxId.
 * Returns the id, 0 when the session is gone, -1 when the id space is spent.
 */
const CREATE_SCRIPT = defineScript(
  'create',
  `${PRELUDE}
local name = ARGV[3]
if redis.call('EXISTS', META) == 0 then return 0 end
local seqKey = T .. 'seq:' .. name
if not redis.call('GET', seqKey) then redis.call('SET', seqKey, ARGV[4]) end
local id = redis.call('INCR', seqKey)
if id > tonumber(ARGV[6]) then
  redis.call('DECR', seqKey)
  return -1
end
redis.call('RPUSH', T .. 'st:' .. name, '{"id":' .. num(id) .. ',' .. ARGV[5])
redis.call('SADD', T .. 'stores', name)
redis.call('HINCRBY', META, 'pv', 1)
return id
`,
)

/** The pets a session created in one store, from a position on. ARGV: prefix, sid, store, from. */
const STORE_RANGE_SCRIPT = defineScript(
  'range',
  `${PRELUDE}
return redis.call('LRANGE', T .. 'st:' .. ARGV[3], tonumber(ARGV[4]), -1)
`,
)

const toNewPet = ({ name, categoryId, status }: NewPet): NewPet => ({ name, categoryId, status })

/** The pets of the Redis state: seeded ones computed here, created ones in Redis. */
export interface RedisPets {
  /** The default store's seeded pets (the same in every instance). */
  readonly seeded: readonly Pet[]
  /**
   * The pets a request in this scenario reads and writes in a session; reads
   * bring the instance's copy up to `pv` (the pets version the request's round
   * trip read) first.
   */
  store(input: {
    sid: string
    entry: CachedSession
    scenario: Scenario
    pv: () => string | undefined
  }): Promise<PetRecords>
  /** How many pets the session's own store holds (a fresh read). */
  count(sid: string): Promise<number>
}

/**
 * Seeded pets and the scenario stores are a function of the seed and the
 * code, computed in each instance; Redis holds, per session and store, the id
 * counter and the list of created pets (decision 0014, point 5).
 *
 * @example
 * const pets = createRedisPets(ctx)
 * const records = await pets.store({ sid, entry, scenario, pv: () => pv })
 */
export const createRedisPets = (ctx: RedisStateContext): RedisPets => {
  const { connection, seed, petCount } = ctx
  const { prefix } = connection
  const seeded: Pet[] = seedPets({ seed, count: petCount }).map((pet, i) => ({ id: i + 1, ...pet }))
  const storeContext = { seededPets: (count = petCount) => seedPets({ seed, count }) }
  const bases = new Map<string, Promise<Pet[]>>([['default', Promise.resolve(seeded)]])
  const baseOf = (name: string, scenario: Scenario): Promise<Pet[]> => {
    let base = bases.get(name)
    if (base === undefined && scenario.store !== undefined) {
      const pets = scenario.store(storeContext)
      // Validated and numbered as the in-memory state builds a scenario store.
      base = (async () => {
        const store = new PetStore()
        for (const pet of pets) await store.create(toNewPet(pet))
        return store.list({ limit: store.count }).pets
      })()
      base.catch(() => bases.delete(name))
      bases.set(name, base)
    }
    return base ?? Promise.resolve(seeded)
  }

  /** Brings a cached store up to the session's pets version (one LRANGE, only after creates). */
  const syncStore = async (
    sid: string,
    entry: CachedSession,
    name: string,
    pets: CachedPets,
    version: string | undefined,
  ): Promise<void> => {
    while (version === undefined || pets.version !== version) {
      const pending = entry.refreshing.get(name)
      if (pending !== undefined) {
        await pending
        if (version === undefined) return
        continue
      }
      const reading = (async () => {
        const rows = (await connection.run(STORE_RANGE_SCRIPT, sessionKey(prefix, sid), [
          sid,
          name,
          pets.created,
        ])) as string[]
        pets.append(rows.map((row) => JSON.parse(row) as Pet))
        pets.version = version
      })()
      entry.refreshing.set(name, reading)
      try {
        await reading
      } finally {
        entry.refreshing.delete(name)
      }
      if (version === undefined) return
    }
  }

  // Reads bring the copy up to date first (one LRANGE, only after creates);
  // a create does not need it.
  const records = (
    sid: string,
    entry: CachedSession,
    name: string,
    pets: CachedPets,
    pv: () => string | undefined,
  ): PetRecords => ({
    async get(id) {
      await syncStore(sid, entry, name, pets, pv())
      return pets.get(id)
    },
    async list(query) {
      await syncStore(sid, entry, name, pets, pv())
      return pets.list(query)
    },
    async create(newPet) {
      const base = await baseOf(name, { name } as Scenario)
      // Acknowledged: on a cluster the answer waits for a replica to hold the pet.
      const id = (await connection.write(CREATE_SCRIPT, sessionKey(prefix, sid), [
        sid,
        name,
        name === 'default' ? seeded.length : base.length,
        JSON.stringify(newPet).slice(1),
        Number.MAX_SAFE_INTEGER,
      ])) as number
      if (id === 0) throw new StaleStateError()
      if (id === -1) throw new IdSpaceExhaustedError()
      const pet: Pet = { id, ...newPet }
      await ctx.events
        .emit('change', { session: sid, store: name, type: 'create', pet })
        .catch(ctx.onError)
      return pet
    },
  })

  return {
    seeded,
    async store({ sid, entry, scenario, pv }) {
      const name = scenario.store === undefined ? 'default' : scenario.name
      let pets = entry.stores.get(name)
      if (pets === undefined) {
        pets = new CachedPets(await baseOf(name, scenario))
        // Another request may have built it meanwhile.
        pets = entry.stores.get(name) ?? pets
        entry.stores.set(name, pets)
      }
      return records(sid, entry, name, pets, pv)
    },
    async count(sid) {
      const rows = (await connection.run(STORE_RANGE_SCRIPT, sessionKey(prefix, sid), [
        sid,
        'default',
        0,
      ])) as string[]
      return seeded.length + rows.length
    },
  }
}
