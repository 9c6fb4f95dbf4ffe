import type { PetStoreSnapshot } from '../../db/pet-store.js'
import { FILE_LIMITS, readTextFile, TextFileError } from '../../files/read-text-file.js'
import { describeIssue, OWN_WORDS } from '../../http/describe-issue.js'
import type { AccountsSnapshot } from '../../state/memory-account-store.js'
import { dataFileSchema } from './data-file-schema.js'

/** One collection of an OpenAPI document as a data file keeps it. */
export interface CollectionFileSnapshot {
  nextSeq: number
  records: Record<string, unknown>[]
}

/**
 * One collection as a session's changes over the seeded records (version 5, decision 0068):
 * the records it created or replaced at their places, the seeded ids it deleted.
 */
export interface CollectionFileChanges {
  nextSeq: number
  changed: { id: string; seq: number; record: Record<string, unknown> }[]
  deleted: string[]
}

/** A collection whole (versions 3 and 4, and another document's carried as read) or as changes over the seed (version 5). */
export type CollectionFilePart = CollectionFileSnapshot | CollectionFileChanges

/** By session id, then by collection key (`oa:<fingerprint>:<path>`). */
export type OpenApiFileRecords = ReadonlyMap<string, ReadonlyMap<string, CollectionFilePart>>

/** The seed the changes over the seed were made with: `--seed` and the records seeded a collection. */
export interface OpenApiFileSeed {
  seed: number
  count: number
}

/** What a data file holds: the default session's pets, other sessions' pets by id, the document's records. */
export type DataFileSnapshot = PetStoreSnapshot & {
  sessions?: ReadonlyMap<string, PetStoreSnapshot> | undefined
  openapi?: OpenApiFileRecords | undefined
  /** Version 5: what the `openapi` changes apply to. */
  openapiSeed?: OpenApiFileSeed | undefined
  /** Version 4: accounts, their keys (hashes and prefixes) and unused invites (contract §22). */
  accounts?: AccountsSnapshot | undefined
}

/** A data file that cannot be used. The file is left as it is. */
export class DataFileError extends Error {
  override name = 'DataFileError'
}

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
    // A regular file (a FIFO would hang the start, /dev/zero never end), bounded (decision 0057).
    text = readTextFile(path, FILE_LIMITS.dataFile)
  } catch (error) {
    if (!(error instanceof TextFileError)) throw error
    if (error.reason === 'missing') return undefined
    throw new DataFileError(
      `Failed to read the data file ${path}: ${error.message}. ${error.reason === 'unreadable' ? 'Check the path and its permissions.' : 'Pass the path of a JSON file.'}`,
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
  const { nextId, pets, sessions, openapi, openapiSeed, accounts } = parsed.data
  return {
    nextId,
    pets,
    ...(sessions === undefined ? {} : { sessions }),
    ...(openapi === undefined ? {} : { openapi }),
    ...(openapiSeed === undefined ? {} : { openapiSeed }),
    ...(accounts === undefined ? {} : { accounts }),
  }
}
