import type { SimpleFaker as Faker } from '@faker-js/faker'
import type { CollectionShape } from './compile-openapi-operations.js'
import type { SchemaCheck } from './compile-schemas.js'
import { generateFromSchema, mergeAllOf } from './generate-from-schema.js'
import type { JsonSchema } from './openapi-document.js'

/** A record of a collection and its place in it (ascending: the order of listing and cursors). */
export interface StoredRecord {
  seq: number
  value: Record<string, unknown>
}

/**
 * Records by id (as text), in the order of their places: a Map, or a session's
 * changes laid over the shared seeded records (`layerOverSeed`).
 */
export interface RecordsById {
  get(id: string): StoredRecord | undefined
  set(id: string, record: StoredRecord): unknown
  delete(id: string): boolean
  values(): IterableIterator<StoredRecord>
}

/** One collection's records in one session. */
export interface CollectionRecords {
  /** By id, as text (`String(id)`). Records are replaced, never changed in place. */
  byId: RecordsById
  nextSeq: number
}

/**
 * A session's records of one collection as its changes over the seeded ones:
 * the seeded records are made once for every session (frozen: a change sets
 * a new record), and a session keeps only what it created, replaced or
 * deleted (issue 35, item 20: GitHub's document cost 4 MB a session when each
 * session copied every collection).
 */
class LayeredRecords implements RecordsById {
  /** A session's own records: a created or changed one, or null for a deleted seeded one. */
  readonly own = new Map<string, StoredRecord | null>()
  constructor(private readonly seed: ReadonlyMap<string, StoredRecord>) {}

  get(id: string): StoredRecord | undefined {
    const mine = this.own.get(id)
    return mine === undefined ? this.seed.get(id) : (mine ?? undefined)
  }

  set(id: string, record: StoredRecord): this {
    this.own.set(id, record)
    return this
  }

  delete(id: string): boolean {
    if (this.get(id) === undefined) return false
    if (this.seed.has(id)) this.own.set(id, null)
    else this.own.delete(id)
    return true
  }

  /** Seeded records at their places (changed or left out when deleted), then created ones by place. */
  *values(): IterableIterator<StoredRecord> {
    for (const [id, record] of this.seed) {
      const mine = this.own.get(id)
      if (mine === undefined) yield record
      else if (mine !== null) yield mine
    }
    const created = [...this.own]
      .filter(([id, r]) => r !== null && !this.seed.has(id))
      .map(([, r]) => r as StoredRecord)
    created.sort((a, b) => a.seq - b.seq)
    yield* created
  }
}

/** The seeded records, frozen, for `layerOverSeed` (made once per collection). */
export const freezeSeed = (
  shape: CollectionShape,
  snapshot: CollectionSnapshot,
): { byId: ReadonlyMap<string, StoredRecord>; nextSeq: number } => {
  const { byId, nextSeq } = loadCollection(shape, snapshot)
  const frozen = new Map<string, StoredRecord>()
  for (const value of byId.values())
    frozen.set(
      String(Object.hasOwn(value.value, shape.idField) ? value.value[shape.idField] : undefined),
      deepFreeze(value),
    )
  return { byId: frozen, nextSeq }
}

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

/** A session's records of a collection: nothing of its own until it changes one. */
export const layerOverSeed = (seed: {
  byId: ReadonlyMap<string, StoredRecord>
  nextSeq: number
}): CollectionRecords => ({ byId: new LayeredRecords(seed.byId), nextSeq: seed.nextSeq })

/** Whether a session changed a collection over its seed (what a data file keeps). */
export const changedOverSeed = (records: CollectionRecords, seed: { nextSeq: number }): boolean =>
  !(records.byId instanceof LayeredRecords) ||
  records.byId.own.size > 0 ||
  records.nextSeq !== seed.nextSeq

/** A session's changes to one collection over its seed: records set (created or replaced) by id, null for a deleted seeded one, and the next place. */
export interface CollectionChanges {
  nextSeq: number
  changes: ReadonlyMap<string, RecordChange>
}

/** A session's changes over the seed (what a data file keeps, decision 0068); undefined for records not laid over a seed. */
export const changesOverSeed = (records: CollectionRecords): CollectionChanges | undefined =>
  records.byId instanceof LayeredRecords
    ? { nextSeq: records.nextSeq, changes: records.byId.own }
    : undefined

/** A session's records of a collection made again from its changes over the seed (a data file's, decision 0068). */
export const layerWithChanges = (
  seed: { byId: ReadonlyMap<string, StoredRecord>; nextSeq: number },
  changes: CollectionChanges,
): CollectionRecords => {
  const layer = new LayeredRecords(seed.byId)
  let nextSeq = Math.max(seed.nextSeq, changes.nextSeq)
  for (const [id, change] of changes.changes) {
    // A deleted id the seed does not have is nothing to delete.
    if (change === null && !seed.byId.has(id)) continue
    layer.own.set(id, change)
    if (change !== null) nextSeq = Math.max(nextSeq, change.seq + 1)
  }
  return { byId: layer, nextSeq }
}

/**
 * The changes over the seed that make a collection's whole records (a data
 * file of version 3 or 4): records the seed does not hold at the same place
 * with the same JSON, and the seeded ids they lack.
 */
export const changesFromWhole = (
  seed: { byId: ReadonlyMap<string, StoredRecord> },
  whole: { byId: ReadonlyMap<string, StoredRecord>; nextSeq: number },
): CollectionChanges => {
  const changes = new Map<string, RecordChange>()
  for (const [id, record] of whole.byId) {
    const seeded = seed.byId.get(id)
    if (
      seeded === undefined ||
      seeded.seq !== record.seq ||
      JSON.stringify(seeded.value) !== JSON.stringify(record.value)
    )
      changes.set(id, record)
  }
  for (const id of seed.byId.keys()) if (!whole.byId.has(id)) changes.set(id, null)
  return { nextSeq: whole.nextSeq, changes }
}

/** Every collection of the document, as one session holds them (what a data file keeps). */
export type OpenApiRecords = Map<string, CollectionRecords>

/** A collection's records as plain JSON (the data file's form). */
export interface CollectionSnapshot {
  nextSeq: number
  records: Record<string, unknown>[]
}

/** Whether a string id schema takes the sequence number as text ("1", "2"): no pattern, format, enum or lengths that refuse it. */
const takesDigits = (schema: JsonSchema): boolean =>
  schema.pattern === undefined &&
  schema.enum === undefined &&
  schema.const === undefined &&
  (schema.format === undefined || schema.format === 'int64' || schema.format === 'int32') &&
  (typeof schema.minLength !== 'number' || schema.minLength <= 1)

/**
 * The id of the record at a sequence number, valid by the id's schema
 * (decision 0059): an integer is the number (from the schema's `minimum`
 * on); a `uuid` is `00000000-0000-4000-8000-<12 hex digits>` (ordered); a
 * plain string is the number as text; any other string (a pattern such as
 * 1Password's 26 lowercase characters, a length, a format) is drawn from
 * the id's schema under a seed of the collection and the number, so the
 * same record has the same id in every list, fetch and instance.
 */
export const idFor = (
  shape: CollectionShape,
  seq: number,
  draw: { faker: Faker; seed: number },
): number | string => {
  const schema = shape.idSchema
  if (shape.idType === 'integer') {
    const minimum = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1
    return minimum > 1 ? seq + minimum - 1 : seq
  }
  // A uuid, still in order and the same for the same record.
  if (shape.idFormat === 'uuid')
    return `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`
  if (
    takesDigits(schema) &&
    (typeof schema.maxLength !== 'number' || String(seq).length <= schema.maxLength)
  )
    return String(seq)
  draw.faker.seed(seedFor(draw.seed, `${shape.path}#id#${seq}`))
  const drawn = generateFromSchema(draw.faker, { ...schema, type: 'string' }, { examples: false })
  return typeof drawn === 'string' ? drawn : String(seq)
}

/** The item schema seeded records and created ones follow: the record's, with the list's own item schema and the create's answer when they ask more. */
export const recordSchemaOf = (shape: CollectionShape): JsonSchema => {
  const others = [shape.listItem, shape.created].flatMap((o) => (o === undefined ? [] : [o.schema]))
  return others.length === 0 ? shape.item : mergeAllOf({ allOf: [shape.item, ...others] })
}

/** Whether a record is valid as a record, as a listed item and as the create's answer. */
export const recordValid = (
  shape: CollectionShape,
  record: unknown,
): true | ReturnType<SchemaCheck> => {
  const own = shape.check(record)
  if (own !== true) return own
  const listed = shape.listItem === undefined ? true : shape.listItem.check(record)
  if (listed !== true) return listed
  return shape.created === undefined ? true : shape.created.check(record)
}

/** A seed per collection, so that adding one leaves the others' records as they were. */
export const seedFor = (seed: number, name: string): number => {
  let hash = seed >>> 0
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 16_777_619) >>> 0
  return hash
}

/**
 * The seeded records of a collection: `count` records generated from the item
 * schema with faker under the collection's seed, ids 1..count assigned by the
 * sandbox. The same seed gives the same records.
 *
 * @example
 * const snapshot = seedCollection(faker, shape, { seed: 20301205, count: 10 })
 */
export const seedCollection = (
  faker: Faker,
  shape: CollectionShape,
  options: { seed: number; count: number },
): CollectionSnapshot => {
  faker.seed(seedFor(options.seed, shape.path))
  const schema = recordSchemaOf(shape)
  const values: Record<string, unknown>[] = []
  for (let seq = 1; seq <= options.count; seq += 1) {
    // A document's example may be a string or break its schema: generated instead (never spread).
    let value = generateFromSchema(faker, schema)
    for (let i = 0; i < 4 && !isRecordLike(shape, value); i += 1)
      value = generateFromSchema(faker, schema, { examples: false })
    values.push(isPlainObject(value) ? value : {})
  }
  const records: Record<string, unknown>[] = []
  const ids = new Set<string>()
  let seq = 0
  for (const value of values) {
    // A drawn id that repeats one before it takes the next place (never two records with one id).
    let id: number | string
    do {
      seq += 1
      id = idFor(shape, seq, { faker, seed: options.seed })
    } while (ids.has(String(id)) && seq < options.count * 4)
    ids.add(String(id))
    records.push({ ...value, [shape.idField]: id })
  }
  return { nextSeq: seq + 1, records }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** An object that, given an id, is a valid record. */
const isRecordLike = (shape: CollectionShape, value: unknown): boolean => {
  if (!isPlainObject(value)) return false
  const idSchema = shape.idSchema
  const id =
    shape.idType === 'integer'
      ? 1
      : idSchema.format === 'uuid'
        ? '00000000-0000-4000-8000-000000000001'
        : undefined
  const withId =
    id === undefined || Object.hasOwn(value, shape.idField)
      ? value
      : { ...value, [shape.idField]: id }
  const result = recordValid(shape, withId)
  // Only the id's own problems are forgiven (it is replaced).
  return (
    result === true ||
    result.every(
      (e) =>
        e.instancePath === `/${shape.idField}` ||
        (e.keyword === 'required' && e.params.missingProperty === shape.idField),
    )
  )
}

const UUID_SEQ = /^00000000-0000-4000-8000-([0-9a-f]{12})$/

/** The sequence number an id the sandbox made stands for (idFor backwards); undefined for another id. */
const seqOf = (id: unknown): number | undefined => {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id > 0 ? id : undefined
  if (typeof id !== 'string') return undefined
  const hex = UUID_SEQ.exec(id)?.[1]
  const seq =
    hex === undefined ? (/^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : 0) : parseInt(hex, 16)
  return Number.isSafeInteger(seq) && seq > 0 ? seq : undefined
}

/**
 * What is wrong with a collection's snapshot read from a file, in a few
 * words per record (`records.3 name must be string`); empty when it can be
 * loaded: objects with their id, ids unique, valid against the record schema.
 */
export const checkCollection = (shape: CollectionShape, snapshot: CollectionSnapshot): string[] => {
  const problems: string[] = []
  const seen = new Set<string>()
  snapshot.records.forEach((record, index) => {
    const id = Object.hasOwn(record, shape.idField) ? record[shape.idField] : undefined
    if (id === undefined) problems.push(`records.${index} has no ${shape.idField}`)
    else if (seen.has(String(id)))
      problems.push(`records.${index} has a duplicate ${shape.idField}`)
    seen.add(String(id))
    const result = shape.check(record)
    if (result !== true)
      problems.push(
        `records.${index} is not valid against the record schema of ${shape.path} (${result
          .slice(0, 2)
          .map((e) => `${e.instancePath || '(record)'} ${e.message ?? 'is invalid'}`)
          .join('; ')})`,
      )
  })
  return problems
}

/** A snapshot loaded as live records (copies: the snapshot stays as it is). */
export const loadCollection = (
  shape: CollectionShape,
  snapshot: CollectionSnapshot,
): { byId: Map<string, StoredRecord>; nextSeq: number } => {
  const byId = new Map<string, StoredRecord>()
  let seq = 0
  let highest = 0
  for (const record of snapshot.records) {
    const id = Object.hasOwn(record, shape.idField) ? record[shape.idField] : undefined
    // The place the id stands for while records stay in order; else the next one.
    const given = seqOf(id)
    seq = given !== undefined && given > seq ? given : seq + 1
    highest = Math.max(highest, seq)
    byId.set(String(id), { seq, value: structuredClone(record) })
  }
  return { byId, nextSeq: Math.max(snapshot.nextSeq, highest + 1) }
}

/** The records as plain JSON, in order. */
export const snapshotCollection = (records: CollectionRecords): CollectionSnapshot => ({
  nextSeq: records.nextSeq,
  records: [...records.byId.values()].map((r) => r.value),
})

/**
 * A change a session made to a collection over its seed, as a shared store
 * keeps it: the record at its place, or null for a deleted one.
 */
export type RecordChange = StoredRecord | null

/**
 * Where the document's records live when instances share a store (Redis):
 * per session and collection key, the changes over the seeded records and
 * the sequence counter. Seeded records are computed in each instance.
 */
export interface SharedCollections {
  /** A session's changes to one collection and its next sequence number (undefined: none yet). */
  read(
    session: string,
    key: string,
  ): Promise<{ nextSeq: number | undefined; changes: Map<string, RecordChange> }>
  /** The next sequence number of a collection, taken atomically (starting after `seededNext - 1`). */
  take(session: string, key: string, seededNext: number): Promise<number>
  /** Stores one record's change (a created, replaced, patched or deleted record). */
  write(session: string, key: string, id: string, change: RecordChange): Promise<void>
}

/** A hash of text as 16 hex digits (two 32-bit FNV-1a passes): a fingerprint, not a secret. */
const hash64 = (text: string): string => {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 16_777_619) >>> 0
    b = Math.imul(b ^ c, 2_246_822_519) >>> 0
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')
}

/**
 * The key a collection's records are kept under in a shared store: its path
 * and a fingerprint of what its records depend on (the record schema, the id
 * field and type, the seed). A changed document gets other keys, so its
 * records never mix with those of the old one.
 *
 * @example
 * collectionKey(shape, 20301205) // 'oa:3f2a…:/categories'
 */
export const collectionKey = (shape: CollectionShape, seed: number): string =>
  `oa:${hash64(
    schemaText({
      seed,
      item: shape.item,
      id: [shape.idField, shape.idType, shape.idFormat ?? null],
    }),
  )}:${shape.path}`

/** The most text a fingerprint reads of a record schema (a big shared schema is cut there). */
const MAX_SCHEMA_TEXT = 4 * 1024 * 1024

/**
 * JSON.stringify's text of a schema, but a part met before (a shared or
 * recursive schema) is written `{"$seen":N}` (N: the order it was first met)
 * and the text stops at 4 MiB: the same text for the same document, linear
 * in its size whatever its `$ref`s.
 */
const schemaText = (value: unknown): string => {
  const parts: string[] = []
  let length = 0
  const met = new Map<unknown, number>()
  const write = (text: string): void => {
    parts.push(text)
    length += text.length
  }
  const visit = (item: unknown): void => {
    if (length > MAX_SCHEMA_TEXT) return
    if (typeof item !== 'object' || item === null) {
      write(JSON.stringify(item) ?? 'null')
      return
    }
    const before = met.get(item)
    if (before !== undefined) {
      write(`{"$seen":${before}}`)
      return
    }
    met.set(item, met.size)
    if (Array.isArray(item)) {
      write('[')
      item.forEach((entry, index) => {
        if (index > 0) write(',')
        visit(entry === undefined ? null : entry)
      })
      write(']')
    } else {
      write('{')
      let first = true
      for (const [key, entry] of Object.entries(item)) {
        if (entry === undefined || typeof entry === 'function') continue
        write(`${first ? '' : ','}${JSON.stringify(key)}:`)
        first = false
        visit(entry)
      }
      write('}')
    }
  }
  visit(value)
  return parts.join('')
}
