import * as z from 'zod/mini'
import { PetSchema } from '../contract/pet.js'
import { PLAN_NAMES } from '../contract/plans.js'
import type { SandboxCore } from '../sandbox/create-sandbox-core.js'

/** The part of the Web Storage API persistence needs (`localStorage` has it). */
export type PersistStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export interface PersistOptions {
  /** The storage entry (default `petstore-sandbox`). */
  key?: string
  /** Where to keep it (default `localStorage`). */
  storage?: PersistStorage
}

/** What `persistSandbox` returns: the way to forget the kept data. */
export interface SandboxPersistence {
  /** The storage entry holding the data. */
  readonly key: string
  /** Writes the current state now (it is also written after every change). */
  save(): void
  /** Removes the stored entry; the sandbox keeps its current data until it is reset. */
  wipe(): void
}

export const DEFAULT_PERSIST_KEY = 'petstore-sandbox'

const KeptKeySchema = z.object({
  key: z.string(),
  plan: z.enum(PLAN_NAMES),
  // Only enterprise keys have limits of their own; other plans' limits follow the plan.
  perMinute: z.optional(z.number().check(z.int(), z.positive())),
  perDay: z.optional(z.number().check(z.int(), z.positive())),
})

const KeptStateSchema = z.object({
  version: z.literal(1),
  pets: z.object({ nextId: z.number().check(z.int(), z.positive()), pets: z.array(PetSchema) }),
  scenario: z.string(),
  keys: z.array(KeptKeySchema),
  revoked: z.array(z.string()),
})

type KeptState = z.infer<typeof KeptStateSchema>

const readKept = (storage: PersistStorage, key: string): KeptState | undefined => {
  const text = storage.getItem(key)
  if (text === null) return undefined
  try {
    return KeptStateSchema.parse(JSON.parse(text))
  } catch {
    return undefined
  }
}

/**
 * Keeps a sandbox's pets (the default scenario's data), its run-time keys,
 * revoked keys and sticky scenario in Web Storage, so they survive page
 * reloads. Restores what was kept, then writes after every change. Quotas and
 * the clock are not kept: they start fresh on every load. A kept entry that
 * does not parse is dropped with a warning and the seeded data is used.
 *
 * @example
 * const sandbox = createSandbox()
 * const persistence = await persistSandbox(sandbox, { key: 'my-app-sandbox' })
 * persistence.wipe() // forget it; `sandbox.reset()` goes back to the seeded pets
 */
export const persistSandbox = async (
  sandbox: SandboxCore<string>,
  options: PersistOptions = {},
): Promise<SandboxPersistence> => {
  const key = options.key ?? DEFAULT_PERSIST_KEY
  const storage = options.storage ?? globalThis.localStorage
  if (storage === undefined) {
    throw new TypeError(
      'Failed to persist the sandbox: there is no localStorage here. Pass `persist: { storage }` or drop `persist`.',
    )
  }
  await sandbox.ready
  const baseKeys = sandbox.keys
    .list()
    .filter((k) => k.source !== 'runtime')
    .map((k) => k.key)

  const save = (): void => {
    const present = new Set(sandbox.keys.list().map((k) => k.key))
    const state: KeptState = {
      version: 1,
      pets: sandbox.db.pets.snapshot(),
      scenario: sandbox.scenario.get(),
      keys: sandbox.keys
        .list()
        .filter((k) => k.source === 'runtime')
        .map(({ key, plan, limits }) => ({ key, plan, ...(plan === 'enterprise' ? limits : {}) })),
      revoked: baseKeys.filter((k) => !present.has(k)),
    }
    storage.setItem(key, JSON.stringify(state))
  }

  const kept = readKept(storage, key)
  if (kept === undefined && storage.getItem(key) !== null) {
    console.warn(`[petstore-sandbox] dropped the kept data in "${key}": it does not parse.`)
    storage.removeItem(key)
  }
  if (kept !== undefined) {
    try {
      await sandbox.db.pets.load(kept.pets)
      for (const { key: text, ...plan } of kept.keys) sandbox.keys.create({ key: text, ...plan })
      for (const text of kept.revoked) sandbox.keys.revoke(text)
      sandbox.scenario.set(kept.scenario)
    } catch (error) {
      console.warn(`[petstore-sandbox] dropped the kept data in "${key}":`, error)
      storage.removeItem(key)
      await sandbox.reset()
    }
  }
  // An extension: it follows the default session's events (subscribed once restored, so
  // restoring does not rewrite the entry half-way) and replaces nothing.
  const ownSession = (event: { session: string }): boolean => event.session === 'default'
  sandbox.events.on('change', (event) => {
    if (ownSession(event) && event.store === 'default') save()
  })
  sandbox.events.on('keys', (event) => {
    if (ownSession(event)) save()
  })
  sandbox.events.on('scenario', (event) => {
    if (ownSession(event)) save()
  })
  // A reset forgets what was kept: the seeded pets come back on the next load too.
  sandbox.events.on('reset', (event) => {
    if (ownSession(event)) storage.removeItem(key)
  })
  return { key, save, wipe: () => storage.removeItem(key) }
}
