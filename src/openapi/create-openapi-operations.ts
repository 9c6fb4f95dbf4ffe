import { SeedFaker } from '../db/seed-faker.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { SandboxSettings } from '../operations/operation.js'
import type { Violation } from '../validation/answer-rules.js'
import { answerCollection } from './answer-collection.js'
import { answerSharedCollection } from './answer-shared-collection.js'
import {
  checkDocumentAnswer,
  type DocumentAnswer,
  sandboxStatuses,
} from './check-document-answer.js'
import { checkBody, checkParameters } from './check-request.js'
import {
  type CollectionShape,
  type CompiledOperation,
  compileOpenApiOperations,
} from './compile-openapi-operations.js'
import { generateFromSchema } from './generate-from-schema.js'
import { loadOpenApiDocument } from './load-openapi-document.js'
import type { OpenApiDocument, OpenApiSource } from './openapi-document.js'
import {
  type CollectionRecords,
  type CollectionSnapshot,
  changedOverSeed,
  collectionKey,
  freezeSeed,
  layerOverSeed,
  loadCollection,
  type OpenApiRecords,
  type SharedCollections,
  seedCollection,
  seedFor,
  snapshotCollection,
} from './openapi-records.js'

/** Records seeded per collection. */
export const RECORDS_PER_COLLECTION = 10

/** What an added operation reads of one request (the pipeline's OperationContext fits). */
export interface OpenApiRequestContext {
  request: SandboxRequest
  url: UrlFields
  params: Readonly<Record<string, string>>
  settings: SandboxSettings
  /** The session the request belongs to: whose records it reads and writes. */
  session: string
}

/** The document's operations, ready to answer, and the records of every session. */
export interface OpenApiOperations {
  /** The document as given, dereferenced (what `/__sandbox/openapi.json` merges in). */
  readonly document: OpenApiDocument
  readonly operations: readonly CompiledOperation[]
  /** The collections by their key in a store (`collectionKey`: path and fingerprint). */
  readonly collections: ReadonlyMap<string, CollectionShape>
  /**
   * Answers one request of one of `operations` (throws ApiError for a refused
   * request); a promise for a collection's operation on a shared store.
   */
  answer(
    operation: CompiledOperation,
    ctx: OpenApiRequestContext,
  ): SandboxResponse | Promise<SandboxResponse>
  /** Checks an answer of one of `operations` against the document (upstream mode, `verify`). */
  checkAnswer(operation: CompiledOperation, answer: DocumentAnswer): Violation[]
  /** The statuses the sandbox itself answers one of `operations` with. */
  sandboxStatuses(operation: CompiledOperation): number[]
  /** A session's records: its changes laid over the seeded records, shared by every session. */
  records(session: string): OpenApiRecords
  /** A session back to the seeded records (a reset), or forgotten (a dropped session). */
  forget(session: string): void
  /** The collections a session changed, as plain JSON (the data file's form); undefined for a session that changed none. */
  snapshot(session: string): Record<string, CollectionSnapshot> | undefined
  /** Loads a session's collections from plain JSON (a data file). */
  load(session: string, snapshot: Readonly<Record<string, CollectionSnapshot>>): void
  /** Sessions whose records were changed since their seed (what a data file keeps). */
  changed(): string[]
  /**
   * Called after a request changed a session's records in this process (the
   * data file listens); a promise it returns is awaited before the answer.
   */
  onChange: ((session: string) => void | Promise<void>) | undefined
}

export interface CreateOpenApiOptions {
  source: OpenApiSource
  basePath: string
  seed: number
  /**
   * Where the records live when instances share a store (Redis); the
   * in-process Map otherwise (what `records`, `snapshot` and `load` read).
   */
  shared?: SharedCollections | undefined
}

const WRITES = new Set(['create', 'replace', 'update', 'delete'])

/**
 * Loads the document and compiles its operations once; seeds every
 * collection once per seed (sessions get copies); answers requests: the
 * parameters and body checked against the document, then a collection's
 * records, or the first success response's example or generated body (the
 * same for every request). Rejects with an OpenApiDocumentError for a
 * document it cannot use.
 *
 * @example
 * const openapi = await createOpenApiOperations({ source: './extras.yaml', basePath: '/v1', seed: 1 })
 */
export const createOpenApiOperations = async (
  options: CreateOpenApiOptions,
): Promise<OpenApiOperations> => {
  const document = await loadOpenApiDocument(options.source)
  const operations = compileOpenApiOperations(document, { basePath: options.basePath })
  // The seed's own faker class (no locale: none joins any bundle), an instance of our own.
  const faker = new SeedFaker()
  const seeded = new Map<string, CollectionSnapshot>()
  const shapes = new Map(
    operations.flatMap((op) =>
      op.collection === undefined ? [] : [[op.collection.path, op.collection] as const],
    ),
  )
  for (const shape of shapes.values())
    seeded.set(
      shape.path,
      seedCollection(faker, shape, { seed: options.seed, count: RECORDS_PER_COLLECTION }),
    )

  // The collections' keys in a shared store: made once.
  const keys = new Map(
    [...shapes].map(([path, shape]) => [path, collectionKey(shape, options.seed)]),
  )

  // Any other operation answers the same body every time: made once, here.
  const fixed = new Map<CompiledOperation, string | null>()
  for (const op of operations) {
    if (op.role !== 'static') continue
    const { schema, check, example } = op.success
    if (schema === undefined || check === undefined) {
      fixed.set(op, example === undefined ? null : JSON.stringify(example.value))
      continue
    }
    // The document's example when it is valid against its own schema; else generated.
    if (example !== undefined && check(example.value) === true) {
      fixed.set(op, JSON.stringify(example.value))
      continue
    }
    faker.seed(seedFor(options.seed, op.id))
    fixed.set(op, JSON.stringify(generateFromSchema(faker, schema)))
  }

  // The seeded records, frozen and shared: a session keeps only its changes over them
  // (a layer made on its first write to a collection), so a session that only reads costs
  // nothing and one that writes costs its changes (issue 35, item 20).
  const seeds = new Map(
    [...shapes].flatMap(([path, shape]) => {
      const snapshot = seeded.get(path)
      return snapshot === undefined ? [] : [[path, freezeSeed(shape, snapshot)] as const]
    }),
  )
  const seedViews = new Map([...seeds].map(([path, seed]) => [path, layerOverSeed(seed)]))
  const sessions = new Map<string, OpenApiRecords>()
  const changed = new Set<string>()
  /** A session's records of one collection; for a write, its own layer (made on first use). */
  const collectionFor = (
    session: string,
    path: string,
    write: boolean,
  ): CollectionRecords | undefined => {
    const held = sessions.get(session)?.get(path)
    if (held !== undefined || !write) return held ?? seedViews.get(path)
    const seed = seeds.get(path)
    if (seed === undefined) return undefined
    const layer = layerOverSeed(seed)
    const own = sessions.get(session) ?? new Map<string, CollectionRecords>()
    own.set(path, layer)
    sessions.set(session, own)
    return layer
  }
  const records = (session: string): OpenApiRecords =>
    new Map(
      [...shapes.keys()].flatMap((path) => {
        const found = collectionFor(session, path, false)
        return found === undefined ? [] : [[path, found] as const]
      }),
    )

  const api: OpenApiOperations = {
    document,
    operations,
    collections: new Map([...shapes].map(([path, shape]) => [keys.get(path) ?? path, shape])),
    onChange: undefined,
    records,
    checkAnswer: checkDocumentAnswer,
    sandboxStatuses,
    answer(op, ctx) {
      const values = checkParameters(op, {
        query: ctx.url.searchParams,
        params: ctx.params,
        request: ctx.request,
      })
      const body = checkBody(op, ctx.request, { maxBodyBytes: ctx.settings.fidelity.maxBodyBytes })
      if (op.collection === undefined) {
        const text = fixed.get(op) ?? null
        return text === null
          ? { status: op.success.status, headers: {}, body: null }
          : {
              status: op.success.status,
              headers: { 'Content-Type': 'application/json' },
              body: text,
            }
      }
      const { shared } = options
      if (shared !== undefined) {
        const seededRecords = seeded.get(op.collection.path)
        if (seededRecords === undefined)
          throw new Error(`Failed to find the collection ${op.collection.path}.`)
        return answerSharedCollection({
          operation: op,
          shape: op.collection,
          values,
          body,
          query: ctx.url.searchParams,
          base: `${ctx.url.origin}${ctx.settings.basePath}`,
          fidelity: ctx.settings.fidelity,
          faker,
          seed: options.seed,
          shared,
          session: ctx.session,
          key: keys.get(op.collection.path) ?? collectionKey(op.collection, options.seed),
          seeded: seededRecords,
        })
      }
      const collection = collectionFor(ctx.session, op.collection.path, WRITES.has(op.role))
      if (collection === undefined)
        throw new Error(`Failed to find the collection ${op.collection.path}.`)
      const response = answerCollection({
        operation: op,
        shape: op.collection,
        records: collection,
        values,
        body,
        query: ctx.url.searchParams,
        base: `${ctx.url.origin}${ctx.settings.basePath}`,
        fidelity: ctx.settings.fidelity,
        faker,
        seed: options.seed,
      })
      if (WRITES.has(op.role)) {
        changed.add(ctx.session)
        const pending = api.onChange?.(ctx.session)
        if (pending !== undefined) return pending.then(() => response)
      }
      return response
    },
    forget(session) {
      sessions.delete(session)
      changed.delete(session)
    },
    snapshot(session) {
      const held = [...(sessions.get(session) ?? [])].filter(([path, r]) => {
        const seed = seeds.get(path)
        return seed === undefined || changedOverSeed(r, seed)
      })
      if (held.length === 0) return undefined
      return Object.fromEntries(held.map(([path, r]) => [path, snapshotCollection(r)]))
    },
    load(session, snapshot) {
      const held = sessions.get(session) ?? new Map<string, CollectionRecords>()
      for (const [path, shape] of shapes) {
        const given = Object.hasOwn(snapshot, path) ? snapshot[path] : undefined
        if (given !== undefined) held.set(path, loadCollection(shape, given))
      }
      sessions.set(session, held)
      changed.add(session)
    },
    changed: () => [...changed],
  }
  return api
}
