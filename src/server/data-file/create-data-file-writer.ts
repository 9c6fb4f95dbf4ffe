import { open, realpath, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { DataFile } from './data-file-schema.js'
import type { DataFileSnapshot } from './read-data-file.js'

/** Writes a store's snapshot to its data file, one write at a time. */
export interface DataFileWriter {
  /**
   * Resolves once a write that started after this call is on disk, so the
   * caller's change is in it. Concurrent calls share writes.
   */
  write(): Promise<void>
  /** Resolves when no write is pending. */
  flush(): Promise<void>
}

let tempCounter = 0

/** JSON with one pet per line: diffable, and quick to write for 100,000 pets. */
const formatPets = (pets: DataFile['pets']): string =>
  `[\n${pets.map((p) => JSON.stringify(p)).join(',\n')}\n]`

/** Version 1 while only the default session has pets to keep; version 2 adds `sessions`. */
const formatDataFile = (file: DataFileSnapshot): string => {
  const sessions = [...(file.sessions ?? [])]
  const head = `{"version":${sessions.length === 0 ? 1 : 2},"nextId":${file.nextId},"pets":${formatPets(file.pets)}`
  if (sessions.length === 0) return `${head}}\n`
  const body = sessions
    .map(
      ([id, store]) =>
        `${JSON.stringify(id)}:{"nextId":${store.nextId},"pets":${formatPets(store.pets)}}`,
    )
    .join(',\n')
  return `${head},"sessions":{\n${body}\n}}\n`
}

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Where to write and with which mode: through a symlink to its target (the
 * rename would replace the link with a regular file), keeping the file's mode
 * (a 0600 file stays 0600).
 */
const resolveTarget = async (path: string): Promise<{ path: string; mode: number | undefined }> => {
  const real = await realpath(path).catch((error: unknown) => {
    if (isMissing(error)) return path
    throw error
  })
  const mode = await stat(real).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  )
  return { path: real, mode }
}

/** temp file in the same directory → write → fsync → rename → fsync the directory. */
const writeAtomically = async (target: string, text: string): Promise<void> => {
  const { path, mode } = await resolveTarget(target)
  const dir = dirname(path)
  const temp = join(dir, `.${basename(path)}.${process.pid}.${++tempCounter}.tmp`)
  const file = await open(temp, 'w', 0o644)
  try {
    // chmod, not open's mode: the umask must not widen or narrow what the user chose.
    if (mode !== undefined) await file.chmod(mode)
    await file.writeFile(text, 'utf8')
    await file.sync()
  } catch (error) {
    await file.close()
    await unlink(temp).catch(() => {})
    throw error
  }
  await file.close()
  await rename(temp, path)
  // The rename is durable once the directory is; not every platform lets a directory be synced.
  const directory = await open(dir, 'r').catch(() => undefined)
  if (directory !== undefined) {
    await directory.sync().catch(() => {})
    await directory.close()
  }
}

/**
 * A serialized, coalescing writer: at most one write runs; calls made while
 * it runs share the next one, which snapshots the store when it starts. So a
 * stale snapshot never lands over a newer one, and a burst of creates costs
 * two writes, not one each.
 *
 * @example
 * const writer = createDataFileWriter('./pets.json', () => sandbox.db.pets.snapshot())
 * store.subscribe(() => writer.write())
 */
export const createDataFileWriter = (
  path: string,
  snapshot: () => DataFileSnapshot,
): DataFileWriter => {
  let running: Promise<void> | undefined
  let next: Promise<void> | undefined

  const start = (): Promise<void> => {
    const write = writeAtomically(path, formatDataFile(snapshot()))
    running = write
    const clear = (): void => {
      if (running === write) running = undefined
    }
    write.then(clear, clear)
    return write
  }

  const writer: DataFileWriter = {
    write() {
      if (next !== undefined) return next
      if (running === undefined) return start()
      next = running
        .catch(() => {})
        .then(() => {
          next = undefined
          return start()
        })
      return next
    },
    async flush() {
      while (running !== undefined || next !== undefined) {
        await (next ?? running)?.catch(() => {})
      }
    },
  }
  return writer
}
