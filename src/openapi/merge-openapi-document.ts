import type { CompiledOperation } from './compile-openapi-operations.js'
import type { OpenApiDocument } from './openapi-document.js'

/**
 * The sandbox's own OpenAPI document (JSON text) with the added operations
 * of the user's document under `paths`, each as the document wrote it (its
 * schemas inline: the user's document is dereferenced) and tagged
 * `x-sandbox-source: openapi`. Paths are below the base path, as the
 * sandbox's own are. What `GET /__sandbox/openapi.json` serves.
 *
 * @example
 * const text = mergeOpenApiDocument(ownText, { document, operations })
 */
export const mergeOpenApiDocument = (
  own: string,
  added: { document: OpenApiDocument; operations: readonly CompiledOperation[] },
): string => {
  const merged = JSON.parse(own) as { paths?: Record<string, Record<string, unknown>> }
  // Maps, not records indexed by the document's names (a path or method named __proto__).
  const paths = new Map(Object.entries(merged.paths ?? {}))
  const source = added.document.paths ?? {}
  // The document's path of each added operation (it may carry the base path, see compile).
  for (const [rawPath, item] of Object.entries(source)) {
    for (const operation of added.operations) {
      if (!rawPath.endsWith(operation.path)) continue
      const method = operation.method.toLowerCase()
      const written = Object.hasOwn(item, method) ? item[method] : undefined
      if (written === undefined) continue
      const target = new Map(Object.entries(paths.get(operation.path) ?? {}))
      if (item.parameters !== undefined && !target.has('parameters'))
        target.set('parameters', item.parameters)
      target.set(method, { ...written, operationId: operation.id, 'x-sandbox-source': 'openapi' })
      paths.set(operation.path, Object.fromEntries(target))
    }
  }
  return JSON.stringify({ ...merged, paths: Object.fromEntries(paths) }, null, 2)
}
