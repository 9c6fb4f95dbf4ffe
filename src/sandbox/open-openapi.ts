import { loadSeedFaker } from '../db/seed-faker.js'
import { DEFAULT_SEED } from '../db/seed-pets.js'
import type { CompiledOperation } from '../openapi/compile-openapi-operations.js'
import type { OpenApiOperations } from '../openapi/create-openapi-operations.js'
import type { OpenApiSource } from '../openapi/openapi-document.js'
import type { SharedCollections } from '../openapi/openapi-records.js'
import type { Operation } from '../operations/operation.js'
import { createRouteTable } from '../operations/route-table.js'
import type { PipelineContext } from '../pipeline/pipeline-context.js'

export interface OpenOpenApiInput {
  source: OpenApiSource
  seed: number | undefined
  /** The shared store's records (the `store` option); the process keeps them otherwise. */
  shared: SharedCollections | undefined
  ctx: PipelineContext
  /** The operations the runtime added (own handlers): the document's come after them. */
  added: readonly Operation[]
  /** Told that a session was reset or dropped: its records start from the seed again. */
  onSessionEnd(listener: (session: string) => void): void
}

/** An added operation that answers from the document (its statuses: the first success and the errors it can give). */
const toOperation = (api: OpenApiOperations, op: CompiledOperation): Operation => ({
  id: op.id,
  method: op.method,
  path: op.path,
  statuses: api.sandboxStatuses(op),
  run: (ctx) => api.answer(op, ctx),
  checkAnswer: (answer) => api.checkAnswer(op, answer),
})

/**
 * The `openapi` option (contract §20): imports the OpenAPI machinery (only
 * now: a sandbox without the option never loads it), loads the document,
 * and puts its operations into the sandbox's route table after the runtime's.
 * Requests wait meanwhile (`ctx.opening`). Resolves the document's
 * operations; rejects with the loader's "Failed to load the OpenAPI
 * document: …" (and the routes stay the contract's).
 *
 * @example
 * const openapi = openOpenApi({ source: './extras.yaml', seed: undefined, ctx, added: [], onSessionEnd })
 */
export const openOpenApi = (input: OpenOpenApiInput): Promise<OpenApiOperations> => {
  const { ctx } = input
  // The document's data comes from the seed's faker, loaded on demand in a browser (decision 0051).
  const loading = Promise.all([
    import('../openapi/create-openapi-operations.js'),
    loadSeedFaker(),
  ]).then(async ([{ createOpenApiOperations }]) => {
    const api = await createOpenApiOperations({
      source: input.source,
      basePath: ctx.settings.basePath,
      seed: input.seed ?? DEFAULT_SEED,
      shared: input.shared,
    })
    const operations = api.operations.map((op) => toOperation(api, op))
    ctx.routes = createRouteTable(
      [...input.added, ...operations],
      'add the OpenAPI document’s operations',
    )
    input.onSessionEnd((session) => api.forget(session))
    return api
  })
  // Never rejects: a refused document leaves the contract's routes (the caller reports it).
  const opened = (): void => {
    ctx.opening = undefined
  }
  ctx.opening = loading.then(opened, opened)
  return loading
}
