import { ApiError } from '../http/api-error.js'
import type { SandboxResponse } from '../http/types.js'
import { answerCollection, type CollectionInput } from './answer-collection.js'
import type { CollectionShape } from './compile-openapi-operations.js'
import {
  type CollectionRecords,
  type CollectionSnapshot,
  loadCollection,
  type RecordChange,
  type SharedCollections,
} from './openapi-records.js'

/** What a collection's operation on a shared store needs besides CollectionInput's. */
export interface SharedCollectionInput extends Omit<CollectionInput, 'records'> {
  shared: SharedCollections
  session: string
  /** The collection's key in the store (`collectionKey`). */
  key: string
  seeded: CollectionSnapshot
}

const malformed = (shape: CollectionShape, id: string, reason: string): ApiError =>
  new ApiError(
    'internal_error',
    `The shared store holds a malformed record of ${shape.path} (id "${id}"): ${reason}. Reset the session (POST /__sandbox/reset) to start its records from the seed again.`,
  )

/** A stored change checked before it is used: an object at a place, valid against the record schema. */
const checkChange = (shape: CollectionShape, id: string, change: RecordChange): RecordChange => {
  if (change === null) return null
  if (typeof change !== 'object' || !Number.isSafeInteger(change.seq) || change.seq < 1)
    throw malformed(shape, id, 'its place is not a positive integer')
  const { value } = change
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw malformed(shape, id, 'it is not a JSON object')
  const stored = Object.hasOwn(value, shape.idField) ? value[shape.idField] : undefined
  if (String(stored) !== id) throw malformed(shape, id, `its ${shape.idField} does not match`)
  if (shape.check(value) !== true) throw malformed(shape, id, 'it is not valid against its schema')
  return change
}

/** The seeded records with a session's changes applied, in order (created ones after the seed, by place). */
const materialize = (
  shape: CollectionShape,
  seeded: CollectionSnapshot,
  read: { nextSeq: number | undefined; changes: Map<string, RecordChange> },
): CollectionRecords => {
  const records = loadCollection(shape, seeded)
  const changes = [...read.changes].map(
    ([id, change]) => [id, checkChange(shape, id, change)] as const,
  )
  // Changes of seeded records keep their place; created ones are appended in the order of their places.
  changes.sort(([, a], [, b]) => (a?.seq ?? 0) - (b?.seq ?? 0))
  let highest = 0
  for (const [id, change] of changes) {
    if (change === null) records.byId.delete(id)
    else {
      records.byId.set(id, { seq: change.seq, value: change.value })
      highest = Math.max(highest, change.seq)
    }
  }
  records.nextSeq = Math.max(records.nextSeq, read.nextSeq ?? 0, highest + 1)
  return records
}

/**
 * A collection's operation when its records live in a shared store (Redis):
 * the session's changes are read and laid over the seeded records, the
 * operation answers on that copy, and its one change is written back. A
 * create takes its place from the store's counter first (atomic: instances
 * never give one id twice). A stored record that is not well formed is
 * answered 500 `internal_error` naming it.
 *
 * @example
 * const response = await answerSharedCollection({ ...input, shared, session: 'default', key, seeded })
 */
export const answerSharedCollection = async (
  input: SharedCollectionInput,
): Promise<SandboxResponse> => {
  const { shared, session, key, shape, operation } = input
  const records = materialize(shape, input.seeded, await shared.read(session, key))
  if (operation.role === 'create') {
    records.nextSeq = await shared.take(session, key, input.seeded.nextSeq)
    const seq = records.nextSeq
    const response = answerCollection({ ...input, records })
    // The created record: the one at the last place taken (a drawn id that repeated one moved on).
    const created = [...records.byId.values()].find(
      (r) => r.seq === records.nextSeq - 1 && r.seq >= seq,
    )
    if (created !== undefined)
      await shared.write(
        session,
        key,
        String(
          Object.hasOwn(created.value, shape.idField) ? created.value[shape.idField] : undefined,
        ),
        created,
      )
    return response
  }
  const response = answerCollection({ ...input, records })
  if (operation.role === 'list' || operation.role === 'fetch') return response
  const raw = Object.hasOwn(input.values, shape.idParam) ? input.values[shape.idParam] : undefined
  const id = String(raw)
  await shared.write(session, key, id, records.byId.get(id) ?? null)
  return response
}
