import { realpath } from 'node:fs/promises'
import type { PetStoreSnapshot } from '../../db/pet-store.js'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import type { MemoryAccountStore } from '../../state/memory-account-store.js'
import { DEFAULT_SESSION } from '../../state/sandbox-state.js'
import { createDataFileWriter } from './create-data-file-writer.js'
import { keepOpenApiRecords } from './keep-openapi-records.js'
import { DataFileError, readDataFile } from './read-data-file.js'
import { removeStrayTempFiles } from './remove-stray-temp-files.js'

/** A sandbox's pets kept in a data file. */
export interface AttachedDataFile {
  /** Resolves when every change is on disk. */
  flush(): Promise<void>
  /** Stops following the sandbox's events. */
  detach(): void
  /** Whether the pets came from the file (false: the file was created from the seed). */
  readonly loaded: boolean
}

/**
 * Loads a data file into the default session and the sessions it names
 * (creating it from the seeded pets when absent), then follows the sandbox's
 * events as an extension: a created pet (`change`, in any session) and a
 * reset (`reset`) are written before their response is sent, because the
 * sandbox awaits its listeners; a dropped session leaves the file. A file that
 * cannot be used rejects with a DataFileError and is not touched.
 *
 * @example
 * const data = await attachDataFile(sandbox, './pets.json')
 */
export const attachDataFile = async (
  sandbox: SandboxCore<string>,
  path: string,
  options: {
    /** Accounts (contract §22): kept in the file (version 4) when given, loaded from it. */
    accounts?: MemoryAccountStore | undefined
    /** The sandbox's clock: portal log-ins already over are not loaded. */
    now?: (() => number) | undefined
  } = {},
): Promise<AttachedDataFile> => {
  const { accounts } = options
  const snapshot = await readDataFile(path, { nameMaxLength: sandbox.fidelity.nameMaxLength })
  // Temp files of a server killed mid-write, beside the path and beside a symlink's target.
  await removeStrayTempFiles(path)
  const real = await realpath(path).catch(() => path)
  if (real !== path) await removeStrayTempFiles(real)
  await sandbox.ready
  // Sessions other than default are kept while their pets differ from the seed: from their
  // first create until they are reset or dropped.
  const kept = new Set<string>()
  if (snapshot !== undefined) {
    await sandbox.db.pets.load(snapshot)
    for (const [id, pets] of snapshot.sessions ?? []) {
      const session = sandbox.session(id)
      await session.ready
      await session.db.pets.load(pets)
      kept.add(id)
    }
  }
  // Accounts and their keys (hashes and prefixes only); a file without them has none.
  if (accounts !== undefined && snapshot?.accounts !== undefined)
    accounts.load(snapshot.accounts, (options.now ?? Date.now)())
  // The OpenAPI document's records (the `openapi` option): loaded and kept with the pets.
  const records = keepOpenApiRecords(
    sandbox.openapi === undefined ? undefined : await sandbox.openapi,
    snapshot?.openapi,
    snapshot?.openapiSeed,
    path,
  )
  const writer = createDataFileWriter(path, () => {
    const sessions = new Map<string, PetStoreSnapshot>()
    for (const id of kept) {
      const pets = sandbox.sessions.pets(id)
      if (pets !== undefined) sessions.set(id, pets.snapshot())
    }
    return {
      ...sandbox.db.pets.snapshot(),
      sessions,
      openapi: records.snapshot(),
      openapiSeed: records.seed,
      accounts: accounts?.snapshot(),
    }
  })
  if (snapshot === undefined) {
    try {
      await writer.write()
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      throw new DataFileError(
        `Failed to create the data file ${path}: ${reason}. Check that its directory exists and is writable.`,
      )
    }
  }
  const off = [
    sandbox.events.on('change', (event) => {
      if (event.store !== 'default') return undefined
      if (event.session !== DEFAULT_SESSION) kept.add(event.session)
      return writer.write()
    }),
    sandbox.events.on('reset', (event) => {
      const hadRecords = records.end(event.session)
      if (event.session === DEFAULT_SESSION) return writer.write()
      return kept.delete(event.session) || hadRecords ? writer.write() : undefined
    }),
    sandbox.events.on('session', (event) => {
      if (event.type !== 'drop') return undefined
      const hadRecords = records.end(event.session)
      return kept.delete(event.session) || hadRecords ? writer.write() : undefined
    }),
  ]
  const openapi = sandbox.openapi === undefined ? undefined : await sandbox.openapi
  if (openapi !== undefined)
    openapi.onChange = (session) => {
      records.touch(session)
      return writer.write()
    }
  if (accounts !== undefined) accounts.onChange = () => writer.write()
  return {
    loaded: snapshot !== undefined,
    flush: () => writer.flush(),
    detach: () => {
      for (const unsubscribe of off) unsubscribe()
      if (openapi !== undefined) openapi.onChange = undefined
      if (accounts !== undefined) accounts.onChange = undefined
    },
  }
}
