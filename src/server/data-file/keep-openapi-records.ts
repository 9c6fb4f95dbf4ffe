import type { OpenApiOperations } from '../../openapi/create-openapi-operations.js'
import {
  type CollectionChanges,
  type CollectionSnapshot,
  checkCollection,
  type RecordChange,
} from '../../openapi/openapi-records.js'
import {
  type CollectionFileChanges,
  type CollectionFilePart,
  DataFileError,
  type OpenApiFileRecords,
  type OpenApiFileSeed,
} from './read-data-file.js'

/** The OpenAPI document's records as a data file keeps them (decisions 0049, 0068). */
export interface OpenApiRecordsKeeper {
  /** What to write: the sessions whose records changed, and records of other documents as they were read. */
  snapshot(): OpenApiFileRecords
  /** The seed the written changes apply to (the file's `openapiSeed`). */
  readonly seed: OpenApiFileSeed | undefined
  /** A session reset or dropped: its records leave the file. True when the file held some. */
  end(session: string): boolean
  /** A session's records changed (a write answered): its part is made again on the next snapshot. */
  touch(session: string): void
}

/** A session's changes to one collection in the file's form: created or replaced records by place, deleted seeded ids. */
const toFile = (changes: CollectionChanges): CollectionFileChanges => {
  const changed: CollectionFileChanges['changed'] = []
  const deleted: string[] = []
  for (const [id, change] of changes.changes)
    if (change === null) deleted.push(id)
    else changed.push({ id, seq: change.seq, record: change.value })
  changed.sort((a, b) => a.seq - b.seq)
  return { nextSeq: changes.nextSeq, changed, deleted }
}

/** What is wrong with a collection's changes read from a file (as checkCollection says it of whole records). */
const checkChanges = (
  check: (record: Record<string, unknown>) => string[],
  idField: string,
  changes: CollectionFileChanges,
): string[] =>
  changes.changed.flatMap(({ id, record }, index) => [
    ...(Object.hasOwn(record, idField) &&
    String(Object.hasOwn(record, idField) ? record[idField] : undefined) === id
      ? []
      : [`changed.${index}.record's ${idField} is not its id ${JSON.stringify(id)}`]),
    ...check(record).map((problem) => `changed.${index}.${problem}`),
  ])

/**
 * Loads a data file's `openapi` records into the document's collections
 * (checked against the record schemas first: a record that does not fit
 * stops the start with a DataFileError, the file untouched) and keeps the
 * records of collections this document does not have (another document's,
 * under another key) as they were, until their session is reset or dropped.
 * Version 5 files keep each session's changes over the seed (decision 0068):
 * they load only over the seed they were made with (`fileSeed`); a file of
 * version 3 or 4 (whole collections) loads as the changes it amounts to.
 *
 * @example
 * const keeper = keepOpenApiRecords(api, snapshot.openapi, snapshot.openapiSeed, './pets.json')
 */
export const keepOpenApiRecords = (
  api: OpenApiOperations | undefined,
  file: OpenApiFileRecords | undefined,
  fileSeed: OpenApiFileSeed | undefined,
  path: string,
): OpenApiRecordsKeeper => {
  const ownSeed =
    api === undefined ? undefined : { seed: api.seed, count: api.recordsPerCollection }
  const holdsChanges = [...(file?.values() ?? [])].some((collections) =>
    [...collections.values()].some((c) => 'changed' in c),
  )
  // Changes laid over other seeded records would silently become other records: refused.
  if (
    holdsChanges &&
    fileSeed !== undefined &&
    ownSeed !== undefined &&
    (fileSeed.seed !== ownSeed.seed || fileSeed.count !== ownSeed.count)
  )
    throw new DataFileError(
      fileSeed.seed !== ownSeed.seed
        ? `Failed to load the data file ${path}: its OpenAPI records are changes over the records seeded with --seed ${fileSeed.seed}, and this server has --seed ${ownSeed.seed}. Start it with --seed ${fileSeed.seed}, or move the file; it was left untouched.`
        : `Failed to load the data file ${path}: its OpenAPI records are changes over ${fileSeed.count} records seeded a collection, and this version seeds ${ownSeed.count}. Start the version that wrote it, or move the file; it was left untouched.`,
    )
  const carried = new Map<string, Map<string, CollectionFilePart>>()
  const keyOf = new Map([...(api?.collections ?? [])].map(([key, shape]) => [shape.path, key]))
  const problems: string[] = []
  const loads: [string, Record<string, CollectionSnapshot>][] = []
  const changeLoads: [string, Record<string, CollectionChanges>][] = []
  for (const [session, collections] of file ?? []) {
    const whole: [string, CollectionSnapshot][] = []
    const changes: [string, CollectionChanges][] = []
    for (const [key, part] of collections) {
      const shape = api?.collections.get(key)
      if (shape === undefined) {
        const kept = carried.get(session) ?? new Map<string, CollectionFilePart>()
        kept.set(key, part)
        carried.set(session, kept)
        continue
      }
      if ('records' in part) {
        for (const problem of checkCollection(shape, part))
          problems.push(`openapi.${session}.${key}.${problem}`)
        whole.push([shape.path, part])
        continue
      }
      const check = (record: Record<string, unknown>) =>
        checkCollection(shape, { nextSeq: 1, records: [record] }).map((p) =>
          p.replace(/^records\.0 /, 'record '),
        )
      for (const problem of checkChanges(check, shape.idField, part))
        problems.push(`openapi.${session}.${key}.${problem}`)
      const map = new Map<string, RecordChange>()
      for (const { id, seq, record } of part.changed) map.set(id, { seq, value: record })
      for (const id of part.deleted) if (!map.has(id)) map.set(id, null)
      changes.push([shape.path, { nextSeq: part.nextSeq, changes: map }])
    }
    if (whole.length > 0) loads.push([session, Object.fromEntries(whole)])
    if (changes.length > 0) changeLoads.push([session, Object.fromEntries(changes)])
  }
  if (problems.length > 0)
    throw new DataFileError(
      `Failed to load the data file ${path}: its OpenAPI records do not fit the document (${problems.slice(0, 5).join('; ')}). Fix or move the file; it was left untouched.`,
    )
  for (const [session, collections] of loads) api?.load(session, collections)
  for (const [session, collections] of changeLoads) api?.loadChanges(session, collections)

  const written = new Set<string>()
  // Each session's part as last made: a write makes again only the parts of sessions changed
  // since (decision 0067), so the same snapshot objects come back (and their formatted text,
  // which the writer keeps by object) for the hundreds of sessions that did not change.
  const made = new Map<string, ReadonlyMap<string, CollectionFilePart>>()
  const touched = new Set<string>()
  return {
    // This server's seed; without a document, the file's (its changes are carried as read).
    seed: ownSeed ?? fileSeed,
    snapshot() {
      const out = new Map<string, Map<string, CollectionFilePart>>()
      for (const [session, kept] of carried) out.set(session, new Map(kept))
      for (const session of api?.changed() ?? []) {
        let part = made.get(session)
        if (part === undefined || touched.has(session)) {
          part = new Map(
            Object.entries(api?.changes(session) ?? {}).map(([collectionPath, changes]) => [
              keyOf.get(collectionPath) ?? collectionPath,
              toFile(changes),
            ]),
          )
          made.set(session, part)
        }
        const collections = out.get(session) ?? new Map<string, CollectionFilePart>()
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
