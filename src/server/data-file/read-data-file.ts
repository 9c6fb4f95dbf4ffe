import { readFile, stat } from 'node:fs/promises'
import type { PetStoreSnapshot } from '../../db/pet-store.js'
import { describeIssue, OWN_WORDS } from '../../http/describe-issue.js'
import type { AccountsSnapshot } from '../../state/memory-account-store.js'
import { dataFileSchema } from './data-file-schema.js'

/** One collection of an OpenAPI document as a data file keeps it. */
export interface CollectionFileSnapshot {
  nextSeq: number
  records: Record<string, unknown>[]
}

/** By session id, then by collection key (`oa:<fingerprint>:<path>`). */
export type OpenApiFileRecords = ReadonlyMap<string, ReadonlyMap<string, CollectionFileSnapshot>>

/** What a data file holds: the default session's pets, other sessions' pets by id, the document's records. */
export type DataFileSnapshot = PetStoreSnapshot & {
  sessions?: ReadonlyMap<string, PetStoreSnapshot> | undefined
  openapi?: OpenApiFileRecords | undefined
  /** Version 4: accounts, their keys (hashes and prefixes) and unused invites (contract §22). */
  accounts?: AccountsSnapshot | undefined
}

/** A data file that cannot be used. The file is left as it is. */
export class DataFileError extends Error {
  override name = 'DataFileError'
}

const isMissing = (error: unknown): boolean =>
  error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Reads and checks a data file. Resolves undefined when it does not exist;
 * rejects with a DataFileError saying what is wrong when it cannot be read,
 * is not JSON, or does not match the data file schema.
 *
 * @example
 * const snapshot = await readDataFile('./pets.json') // undefined on first start
 */
export const readDataFile = async (
  path: string,
  /** The sandbox's `nameMaxLength` setting: longer names are refused (default 100). */
  options: { nameMaxLength?: number } = {},
): Promise<DataFileSnapshot | undefined> => {
  let text: string
  try {
    // Before reading: opening a FIFO for reading waits for a writer, forever.
    const info = await stat(path)
    if (!info.isFile()) {
      throw new DataFileError(
        `Failed to read the data file ${path}: it is not a regular file (a directory, FIFO, socket or device). Pass the path of a JSON file.`,
      )
    }
    text = await readFile(path, 'utf8')
  } catch (error) {
    if (error instanceof DataFileError) throw error
    if (isMissing(error)) return undefined
    const reason = error instanceof Error ? error.message : String(error)
    throw new DataFileError(
      `Failed to read the data file ${path}: ${reason}. Check the path and its permissions.`,
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new DataFileError(
      `Failed to load the data file ${path}: it is not valid JSON (${reason}). Fix or move the file; it was left untouched.`,
    )
  }
  const parsed = dataFileSchema(options.nameMaxLength).safeParse(value, OWN_WORDS)
  if (!parsed.success) {
    // In the project's words, never zod's: `nextId is required (a number)`.
    const problems = parsed.error.issues
      .slice(0, 5)
      .map(
        (i) =>
          `${i.path.map(String).join('.') || '(file)'} ${describeIssue(i, { input: value, given: true })}`,
      )
      .join('; ')
    throw new DataFileError(
      `Failed to load the data file ${path}: it is not a petstore-sandbox data file (${problems}). Fix or move the file; it was left untouched.`,
    )
  }
  const { nextId, pets, sessions, openapi, accounts } = parsed.data
  return {
    nextId,
    pets,
    ...(sessions === undefined ? {} : { sessions }),
    ...(openapi === undefined ? {} : { openapi }),
    ...(accounts === undefined ? {} : { accounts }),
  }
}
