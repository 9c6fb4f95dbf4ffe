import { realpath } from 'node:fs/promises'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { DEFAULT_SESSION } from '../../state/sandbox-state.js'
import { createDataFileWriter } from './create-data-file-writer.js'
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
 * Loads a data file into the default session (creating it from the seeded
 * pets when absent), then follows the sandbox's events as an extension: a
 * created pet (`change`) and a reset (`reset`) are written before their
 * response is sent, because the sandbox awaits its listeners. A file that
 * cannot be used rejects with a DataFileError and is not touched.
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
    sandbox.events.on('change', (event) =>
      event.session === DEFAULT_SESSION && event.store === 'default' ? writer.write() : undefined,
    ),
    sandbox.events.on('reset', (event) =>
      event.session === DEFAULT_SESSION ? writer.write() : undefined,
    ),
  ]
  return {
    loaded: snapshot !== undefined,
    flush: () => writer.flush(),
    detach: () => {
      for (const unsubscribe of off) unsubscribe()
    },
  }
}
