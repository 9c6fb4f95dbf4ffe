import { realpath } from 'node:fs/promises'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { createDataFileWriter } from './create-data-file-writer.js'
import { DataFileError, readDataFile } from './read-data-file.js'
import { removeStrayTempFiles } from './remove-stray-temp-files.js'

/** A sandbox's pets kept in a data file. */
export interface AttachedDataFile {
  /** Call after `sandbox.reset()`: follows the new store and writes the seeded pets. */
  afterReset(): Promise<void>
  /** Resolves when every change is on disk. */
  flush(): Promise<void>
  /** Whether the pets came from the file (false: the file was created from the seed). */
  readonly loaded: boolean
}

/**
 * Loads a data file into the sandbox (creating it from the seeded pets when
 * absent) and writes every change to it before the change's response is sent.
 * A file that cannot be used rejects with a DataFileError and is not touched.
 *
 * @example
 * const data = await attachDataFile(sandbox, './pets.json')
 */
export const attachDataFile = async (
  sandbox: SandboxCore,
  path: string,
): Promise<AttachedDataFile> => {
  const snapshot = await readDataFile(path)
  // Temp files of a server killed mid-write, beside the path and beside a symlink's target.
  await removeStrayTempFiles(path)
  const real = await realpath(path).catch(() => path)
  if (real !== path) await removeStrayTempFiles(real)
  await sandbox.ready
  if (snapshot !== undefined) await sandbox.db.pets.load(snapshot)
  const writer = createDataFileWriter(path, () => sandbox.db.pets.snapshot())
  // The listener is awaited by PetStore.create, so a 201 is only sent once the pet is on disk.
  const follow = () => sandbox.db.pets.subscribe(() => writer.write())
  let unsubscribe = follow()
  if (snapshot === undefined) {
    try {
      await writer.write()
    } catch (error) {
      unsubscribe()
      const reason = error instanceof Error ? error.message : String(error)
      throw new DataFileError(
        `Failed to create the data file ${path}: ${reason}. Check that its directory exists and is writable.`,
      )
    }
  }
  return {
    loaded: snapshot !== undefined,
    async afterReset() {
      unsubscribe()
      unsubscribe = follow()
      await writer.write()
    },
    flush: () => writer.flush(),
  }
}
