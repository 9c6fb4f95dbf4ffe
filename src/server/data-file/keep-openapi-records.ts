import type { OpenApiOperations } from '../../openapi/create-openapi-operations.js'
import { type CollectionSnapshot, checkCollection } from '../../openapi/openapi-records.js'
import {
  type CollectionFileSnapshot,
  DataFileError,
  type OpenApiFileRecords,
} from './read-data-file.js'

/** The OpenAPI document's records as a data file keeps them (decision 0049). */
export interface OpenApiRecordsKeeper {
  /** What to write: the sessions whose records changed, and records of other documents as they were read. */
  snapshot(): OpenApiFileRecords
  /** A session reset or dropped: its records leave the file. True when the file held some. */
  end(session: string): boolean
  /** A session's records changed (a write answered): its part is made again on the next snapshot. */
  touch(session: string): void
}

/**
 * Loads a data file's `openapi` records into the document's collections
 * (checked against the record schemas first: a record that does not fit
 * stops the start with a DataFileError, the file untouched) and keeps the
 * records of collections this document does not have (another document's,
 * under another key) as they were, until their session is reset or dropped.
 *
 * @example
 * const keeper = keepOpenApiRecords(api, snapshot.openapi, './pets.json')
 */
export const keepOpenApiRecords = (
  api: OpenApiOperations | undefined,
  file: OpenApiFileRecords | undefined,
  path: string,
): OpenApiRecordsKeeper => {
  const carried = new Map<string, Map<string, CollectionFileSnapshot>>()
  const keyOf = new Map([...(api?.collections ?? [])].map(([key, shape]) => [shape.path, key]))
  const problems: string[] = []
  const loads: [string, Record<string, CollectionSnapshot>][] = []
  for (const [session, collections] of file ?? []) {
    const known: [string, CollectionSnapshot][] = []
    for (const [key, snapshot] of collections) {
      const shape = api?.collections.get(key)
      if (shape === undefined) {
        const kept = carried.get(session) ?? new Map<string, CollectionFileSnapshot>()
        kept.set(key, snapshot)
        carried.set(session, kept)
        continue
      }
      for (const problem of checkCollection(shape, snapshot))
        problems.push(`openapi.${session}.${key}.${problem}`)
      known.push([shape.path, snapshot])
    }
    if (known.length > 0) loads.push([session, Object.fromEntries(known)])
  }
  if (problems.length > 0)
    throw new DataFileError(
      `Failed to load the data file ${path}: its OpenAPI records do not fit the document (${problems.slice(0, 5).join('; ')}). Fix or move the file; it was left untouched.`,
    )
  for (const [session, collections] of loads) api?.load(session, collections)

  const written = new Set<string>()
  // Each session's part as last made: a write makes again only the parts of sessions changed
  // since (decision 0067), so the same snapshot objects come back (and their formatted text,
  // which the writer keeps by object) for the hundreds of sessions that did not change.
  const made = new Map<string, ReadonlyMap<string, CollectionFileSnapshot>>()
  const touched = new Set<string>()
  return {
    snapshot() {
      const out = new Map<string, Map<string, CollectionFileSnapshot>>()
      for (const [session, kept] of carried) out.set(session, new Map(kept))
      for (const session of api?.changed() ?? []) {
        let part = made.get(session)
        if (part === undefined || touched.has(session)) {
          part = new Map(
            Object.entries(api?.snapshot(session) ?? {}).map(([collectionPath, snapshot]) => [
              keyOf.get(collectionPath) ?? collectionPath,
              snapshot,
            ]),
          )
          made.set(session, part)
        }
        const collections = out.get(session) ?? new Map<string, CollectionFileSnapshot>()
        for (const [key, snapshot] of part) collections.set(key, snapshot)
        out.set(session, collections)
      }
      touched.clear()
      written.clear()
      for (const session of out.keys()) written.add(session)
      return out
    },
    end(session) {
      made.delete(session)
      touched.delete(session)
      return carried.delete(session) || written.has(session)
    },
    touch(session) {
      touched.add(session)
    },
  }
}
