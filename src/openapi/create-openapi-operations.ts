import type { SimpleFaker as Faker } from '@faker-js/faker'
import { SeedFaker } from '../db/seed-faker.js'
import { ApiError } from '../http/api-error.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { SandboxSettings } from '../operations/operation.js'
import type { Violation } from '../validation/answer-rules.js'
import { answerCollection } from './answer-collection.js'
import { answerSharedCollection } from './answer-shared-collection.js'
import { binaryBody, isBinaryMedia, isBinarySchema, svgPicture } from './binary-body.js'
import {
  checkDocumentAnswer,
  type DocumentAnswer,
  declaredFor,
  sandboxStatuses,
} from './check-document-answer.js'
import { checkBody, checkParameters } from './check-request.js'
import {
  type CollectionShape,
  type CompiledOperation,
  compileOpenApiOperations,
} from './compile-openapi-operations.js'
import {
  createSchemaCompiler,
  MAX_PATTERN_PROGRAM,
  type SchemaCheck,
  type SchemaNotices,
} from './compile-schemas.js'
import { generateFromSchema, generateValid } from './generate-from-schema.js'
import { loadOpenApiDocument } from './load-openapi-document.js'
import type { JsonSchema, OpenApiDocument, OpenApiSource } from './openapi-document.js'
import {
  type CollectionChanges,
  type CollectionRecords,
  type CollectionSnapshot,
  changedOverSeed,
  changesFromWhole,
  changesOverSeed,
  collectionKey,
  freezeSeed,
  layerOverSeed,
  layerWithChanges,
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
  /**
   * What the sandbox does not check of the document, one line each (unknown
   * formats, patterns RE2 cannot run, paths no request reaches): the CLI
   * prints them at start unless quiet.
   */
  readonly notices: readonly string[]
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
  /** Loads a session's collections from plain JSON (a data file of version 3 or 4): kept as their changes over the seed. */
  load(session: string, snapshot: Readonly<Record<string, CollectionSnapshot>>): void
  /** The seed the seeded records are made with (a data file records it beside its changes, decision 0068). */
  readonly seed: number
  /** Records seeded per collection (RECORDS_PER_COLLECTION; a data file records it beside its changes). */
  readonly recordsPerCollection: number
  /** The collections a session changed, as its changes over the seed (a data file's form, decision 0068); undefined for none. */
  changes(session: string): Record<string, CollectionChanges> | undefined
  /** Loads a session's changes over the seed (a data file's), by collection path. */
  loadChanges(session: string, changes: Readonly<Record<string, CollectionChanges>>): void
  /**
   * One-line notes about the document for the person who started the
   * sandbox (examples that break their own schema and are not served); the
   * CLI prints them unless `--quiet`.
   */
  readonly notes: readonly string[]
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

/** The headers the success response declares as required, and `Location`: the example, else drawn from the schema (a URL under the base path for a Location without one). */
const successHeaders = (
  op: CompiledOperation,
  faker: Faker,
  basePath: string,
): Record<string, string> => {
  // From entries: a header named `__proto__` or `constructor` stays an own key.
  return Object.fromEntries(
    op.success.headers.map((header) => {
      const given = header.example?.value
      const value =
        given !== undefined && typeof given !== 'object'
          ? given
          : header.name.toLowerCase() === 'location' &&
              header.schema.pattern === undefined &&
              header.schema.format === undefined
            ? `${basePath}${op.path.replace(/\{[^}]*\}/g, '1')}`
            : generateFromSchema(faker, header.schema, { name: header.name, examples: false })
      return [header.name, typeof value === 'string' ? value : JSON.stringify(value)]
    }),
  )
}

/** A small HTML page around a text. */
const HTML = (text: string): string =>
  `<!doctype html>\n<html><head><title>${text}</title></head><body><p>${text}</p></body></html>\n`

/**
 * The answer of a success whose body is not JSON (decisions 0059, 0067): the
 * declared Content-Type and a body valid for it: a string example as given
 * (as its bytes for a binary type); for `text/*` text drawn from the declared
 * string schema (an HTML page for `text/html`); a minimal XML document for
 * XML; a small SVG; for a binary type (an image, a PDF, `octet-stream`) bytes
 * a client can decode (`binaryBody`), within the schema's lengths.
 */
const otherAnswer = (
  op: CompiledOperation,
  faker: Faker,
  headers: Record<string, string>,
  compile: (schema: JsonSchema) => SchemaCheck,
): SandboxResponse => {
  const { status, example, otherSchema } = op.success
  // A range answered as octet-stream takes the schema's own `contentMediaType` (3.1) when it names one.
  const contentType =
    op.success.contentType === 'application/octet-stream' &&
    typeof otherSchema?.contentMediaType === 'string' &&
    /^[\w.+-]+\/[\w.+-]+$/.test(otherSchema.contentMediaType)
      ? otherSchema.contentMediaType
      : op.success.contentType
  if (contentType === undefined) return { status, headers, body: null }
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  const withType = { 'Content-Type': contentType, ...headers }
  const text = (): string => {
    if (
      otherSchema !== undefined &&
      (otherSchema.type === 'string' || otherSchema.type === undefined)
    ) {
      const { value, valid } = generateValid(faker, otherSchema, compile(otherSchema))
      if (valid && typeof value === 'string') return value
    }
    return generateFromSchema(faker, { type: 'string' }, { name: 'description' }) as string
  }
  const binary = isBinaryMedia(type) || isBinarySchema(otherSchema)
  if (typeof example?.value === 'string')
    return binary
      ? { status, headers: withType, body: null, bytes: new TextEncoder().encode(example.value) }
      : { status, headers: withType, body: example.value }
  if (binary)
    return { status, headers: withType, body: null, bytes: binaryBody(faker, type, otherSchema) }
  if (type === 'image/svg+xml') return { status, headers: withType, body: svgPicture(faker) }
  if (type === 'text/html') return { status, headers: withType, body: HTML(text()) }
  if (type.endsWith('/xml') || type.endsWith('+xml'))
    return {
      status,
      headers: withType,
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<result>${text()}</result>\n`,
    }
  if (/json/.test(type))
    return {
      status,
      headers: withType,
      body: example === undefined ? null : JSON.stringify(example.value),
    }
  return { status, headers: withType, body: text() }
}

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
  const found: SchemaNotices = {
    unknownFormats: new Set(),
    uncheckedPatterns: new Set(),
    unreachablePaths: new Set(),
  }
  const compile = createSchemaCompiler(document.openapi.startsWith('3.1') ? '3.1' : '3.0', found)
  const operations = compileOpenApiOperations(document, {
    basePath: options.basePath,
    notices: found,
    compile,
  })
  // The seed's own faker class (no locale: none joins any bundle), an instance of our own.
  const faker = new SeedFaker()
  const seeded = new Map<string, CollectionSnapshot>()
  const shapes = new Map(
    operations.flatMap((op) =>
      op.collection === undefined ? [] : [[op.collection.path, op.collection] as const],
    ),
  )
  // A collection whose record schema the validator cannot compile starts empty (its requests
  // answer 500 and a note names it) instead of stopping the start.
  const unseeded: string[] = []
  for (const shape of shapes.values()) {
    let snapshot: CollectionSnapshot = { nextSeq: 1, records: [] }
    try {
      snapshot = seedCollection(faker, shape, { seed: options.seed, count: RECORDS_PER_COLLECTION })
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('Failed to compile')) throw error
      unseeded.push(`${shape.path}: ${error.message.split('\n')[0]}`)
    }
    seeded.set(shape.path, snapshot)
  }

  // The collections' keys in a shared store: made once.
  const keys = new Map(
    [...shapes].map(([path, shape]) => [path, collectionKey(shape, options.seed)]),
  )

  // Examples of the document that break their own schema: never served (decision 0059).
  const invalidExamples: string[] = []
  // Any other operation answers the same body every time; the success bodies of a collection's
  // operations whose schema is not the record's, and a wrapped list's other fields (`has_more`,
  // `object`), likewise: each made once, on the operation's first request (GitHub's document has
  // 900 such operations; compiling their schemas at start took 9 s, decision 0058), from the
  // operation's own seed, so the same in every process whatever the order of requests.
  const fixed = new Map<CompiledOperation, SandboxResponse>()
  const declaredBodies = new Map<CompiledOperation, string>()
  const wrappers = new Map<CompiledOperation, Record<string, unknown>>()
  const prepared = new Set<CompiledOperation>()
  const prepare = (op: CompiledOperation): void => {
    if (prepared.has(op)) return
    prepared.add(op)
    faker.seed(seedFor(options.seed, op.id))
    if (op.role === 'list' && op.listField !== undefined && op.success.schema !== undefined) {
      const { value } = generateValid(faker, op.success.schema, compile(op.success.schema), {
        compile,
      })
      const wrapper =
        typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
      wrappers.set(op, wrapper as Record<string, unknown>)
      return
    }
    if (op.role !== 'static') {
      const { schema, check } = op.success
      // A success that is not the record (a DELETE answering a string): its own body, made once.
      if (
        op.role !== 'list' &&
        schema !== undefined &&
        check !== undefined &&
        schema !== op.collection?.item
      )
        declaredBodies.set(
          op,
          JSON.stringify(generateValid(faker, schema, check, { compile }).value),
        )
      return
    }
    const { schema, check, example } = op.success
    const headers = successHeaders(op, faker, options.basePath)
    if (schema === undefined || check === undefined) {
      fixed.set(op, otherAnswer(op, faker, headers, compile))
      return
    }
    // The document's example when it is valid against its own schema; else generated.
    let text: string
    if (example !== undefined && check(example.value) === true) text = JSON.stringify(example.value)
    else {
      if (example !== undefined) invalidExamples.push(`${op.id} ${op.success.status}`)
      text = JSON.stringify(generateValid(faker, schema, check, { compile }).value)
    }
    fixed.set(op, {
      status: op.success.status,
      headers: { 'Content-Type': op.success.contentType ?? 'application/json', ...headers },
      body: text,
    })
  }
  // A document of up to EAGER_OPERATIONS operations is prepared at start, so the CLI can name
  // its invalid examples before the first request; a bigger one on first use (decision 0058).
  // An operation whose schema the validator cannot compile (Codat's `type` written as an object)
  // does not stop the start: it is named in a note, and answers 500 on its own requests.
  const unprepared: string[] = [...unseeded]
  if (operations.length <= EAGER_OPERATIONS)
    for (const op of operations)
      try {
        prepare(op)
      } catch (error) {
        prepared.delete(op)
        if (!(error instanceof Error) || !error.message.startsWith('Failed to compile')) throw error
        unprepared.push(`${op.method} ${op.path}: ${error.message.split('\n')[0]}`)
      }
  const notes = [
    ...(unprepared.length === 0
      ? []
      : [
          `${unprepared.length} operation${unprepared.length === 1 ? '' : 's'} of the OpenAPI document cannot be answered: a schema the validator cannot compile (${unprepared
            .slice(0, 3)
            .map((line) => (line.length > 160 ? `${line.slice(0, 157)}...` : line))
            .join(
              '; ',
            )}${unprepared.length > 3 ? '; …' : ''}). They answer 500 internal_error; fix the schema.`,
        ]),
    ...(invalidExamples.length === 0
      ? []
      : [
          `The OpenAPI document has ${invalidExamples.length} example${invalidExamples.length === 1 ? '' : 's'} that ${invalidExamples.length === 1 ? 'is' : 'are'} not valid by ${invalidExamples.length === 1 ? 'its' : 'their'} own schema (${invalidExamples.slice(0, 3).join(', ')}${invalidExamples.length > 3 ? ', …' : ''}): answered with generated values instead. Fix the examples to see them served.`,
        ]),
  ]

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

  /** One request of one operation, as the contract's errors (ApiError) when refused. */
  const answerOf = (
    op: CompiledOperation,
    ctx: OpenApiRequestContext,
  ): SandboxResponse | Promise<SandboxResponse> => {
    const values = checkParameters(op, {
      query: ctx.url.searchParams,
      params: ctx.params,
      request: ctx.request,
    })
    const body = checkBody(op, ctx.request, { maxBodyBytes: ctx.settings.fidelity.maxBodyBytes })
    prepare(op)
    if (op.collection === undefined) {
      const answer = fixed.get(op)
      return answer === undefined
        ? { status: op.success.status, headers: {}, body: null }
        : { ...answer, headers: { ...answer.headers } }
    }
    // What both stores' answers take: the operation, the request's values, the settings.
    const common = {
      operation: op,
      shape: op.collection,
      values,
      body,
      query: ctx.url.searchParams,
      base: `${ctx.url.origin}${ctx.settings.basePath}`,
      fidelity: ctx.settings.fidelity,
      faker,
      seed: options.seed,
      wrapper: wrappers.get(op),
      declaredBody: declaredBodies.get(op),
    }
    const { shared } = options
    if (shared !== undefined) {
      const seededRecords = seeded.get(op.collection.path)
      if (seededRecords === undefined)
        throw new Error(`Failed to find the collection ${op.collection.path}.`)
      return answerSharedCollection({
        ...common,
        shared,
        session: ctx.session,
        key: keys.get(op.collection.path) ?? collectionKey(op.collection, options.seed),
        seeded: seededRecords,
      })
    }
    const collection = collectionFor(ctx.session, op.collection.path, WRITES.has(op.role))
    if (collection === undefined)
      throw new Error(`Failed to find the collection ${op.collection.path}.`)
    const response = answerCollection({ ...common, records: collection })
    if (WRITES.has(op.role)) {
      changed.add(ctx.session)
      const pending = api.onChange?.(ctx.session)
      if (pending !== undefined) return pending.then(() => response)
    }
    return response
  }

  // Error bodies in the document's own shape, made once per operation and status.
  const errorBases = new Map<string, unknown>()
  /**
   * An error the sandbox answers (400, 404) where the document declares that
   * status with a schema the contract's Error body breaks (GitHub's
   * `{ message, documentation_url }`, Netlify's integer `code`): a body
   * generated from the document's schema, the error's message, code, status
   * and details put where the schema takes them (decision 0059). Undefined
   * when the Error body already fits, or no schema is declared.
   */
  const errorInDocumentShape = (
    op: CompiledOperation,
    error: unknown,
  ): SandboxResponse | undefined => {
    if (!(error instanceof ApiError)) return undefined
    const response = error.toResponse()
    const declared = declaredFor(op, response.status)
    if (declared?.schema === undefined || declared.check === undefined) return undefined
    const contractBody = JSON.parse(response.body ?? 'null') as Record<string, unknown>
    if (declared.check(contractBody) === true) return undefined
    const key = `${op.id} ${response.status}`
    if (!errorBases.has(key)) {
      faker.seed(seedFor(options.seed, key))
      errorBases.set(key, generateValid(faker, declared.schema, declared.check, { compile }).value)
    }
    let body = structuredClone(errorBases.get(key))
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      for (const [name, value] of [
        ['message', contractBody.message],
        ['code', contractBody.code],
        ['error', contractBody.message],
        ['status', contractBody.status],
        ['details', contractBody.details],
      ] as const) {
        if (value === undefined || !Object.hasOwn(body as object, name)) continue
        const tried = { ...(body as Record<string, unknown>), [name]: value }
        if (declared.check(tried) === true) body = tried
      }
    }
    return {
      status: response.status,
      headers: { ...response.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }
  }

  const api: OpenApiOperations = {
    document,
    operations,
    notices: describeNotices(found),
    collections: new Map([...shapes].map(([path, shape]) => [keys.get(path) ?? path, shape])),
    onChange: undefined,
    notes,
    records,
    checkAnswer: checkDocumentAnswer,
    sandboxStatuses,
    answer(op, ctx) {
      try {
        const response = answerOf(op, ctx)
        return response instanceof Promise
          ? response.catch(
              (error: unknown) => errorInDocumentShape(op, error) ?? Promise.reject(error),
            )
          : response
      } catch (error) {
        const shaped = errorInDocumentShape(op, error)
        if (shaped === undefined) throw error
        return shaped
      }
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
        if (given === undefined) continue
        const whole = loadCollection(shape, given)
        const seed = seeds.get(path)
        held.set(
          path,
          seed === undefined ? whole : layerWithChanges(seed, changesFromWhole(seed, whole)),
        )
      }
      sessions.set(session, held)
      changed.add(session)
    },
    seed: options.seed,
    recordsPerCollection: RECORDS_PER_COLLECTION,
    changes(session) {
      // Entries, then Object.fromEntries: a collection path is the document's text (`__proto__` too).
      const out: [string, CollectionChanges][] = []
      for (const [path, r] of sessions.get(session) ?? []) {
        const seed = seeds.get(path)
        if (seed !== undefined && !changedOverSeed(r, seed)) continue
        // Every collection has its seed (an empty one when it could not be seeded), so each
        // session's records are laid over it (collectionFor, load, loadChanges).
        const own = changesOverSeed(r)
        if (own !== undefined) out.push([path, own])
      }
      return out.length === 0 ? undefined : Object.fromEntries(out)
    },
    loadChanges(session, changes) {
      const held = sessions.get(session) ?? new Map<string, CollectionRecords>()
      for (const path of shapes.keys()) {
        const given = Object.hasOwn(changes, path) ? changes[path] : undefined
        const seed = seeds.get(path)
        if (given !== undefined && seed !== undefined) held.set(path, layerWithChanges(seed, given))
      }
      sessions.set(session, held)
      changed.add(session)
    },
    changed: () => [...changed],
  }
  return api
}

/** Documents of up to this many operations have their answers made at start (see `prepare`). */
const EAGER_OPERATIONS = 300

/** A list of at most five quoted items, then how many more. */
const some = (items: Iterable<string>): string => {
  const all = [...items].sort()
  const shown = all
    .slice(0, 5)
    .map((item) => JSON.stringify(item.length > 60 ? `${item.slice(0, 57)}...` : item))
  return `${shown.join(', ')}${all.length > 5 ? ` and ${all.length - 5} more` : ''}`
}

const describeNotices = (found: SchemaNotices): string[] => [
  ...(found.unreachablePaths === undefined || found.unreachablePaths.size === 0
    ? []
    : [
        `OpenAPI document: ${found.unreachablePaths.size} path${found.unreachablePaths.size === 1 ? '' : 's'} with "#" or "?" in ${found.unreachablePaths.size === 1 ? 'it' : 'them'} (${some(found.unreachablePaths)}) no request can reach: their operations are left out.`,
      ]),
  ...(found.unknownFormats.size === 0
    ? []
    : [
        `OpenAPI document: ${found.unknownFormats.size} format${found.unknownFormats.size === 1 ? '' : 's'} the sandbox does not know (${some(found.unknownFormats)}): those strings are not checked against their format.`,
      ]),
  ...(found.uncheckedPatterns.size === 0
    ? []
    : [
        `OpenAPI document: ${found.uncheckedPatterns.size} pattern${found.uncheckedPatterns.size === 1 ? '' : 's'} cannot be matched in linear time (a backreference, lookaround, or over ${MAX_PATTERN_PROGRAM} RE2 instructions: ${some(found.uncheckedPatterns)}): those strings are not checked against them.`,
      ]),
]
