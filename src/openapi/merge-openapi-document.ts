import type { CompiledOperation } from './compile-openapi-operations.js'
import type { OpenApiDocument } from './openapi-document.js'

/**
 * The sandbox's own OpenAPI document (JSON text) with the added operations
 * of the user's document under `paths`, each as the document wrote it (its
 * schemas inline: the user's document is dereferenced; a recursive schema
 * becomes a component of its own, referred to) and tagged
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
  const merged = JSON.parse(own) as {
    paths?: Record<string, Record<string, unknown>>
    components?: Record<string, Record<string, unknown>>
  }
  const tree = treeOf()
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
        target.set('parameters', tree.copy(item.parameters))
      target.set(method, {
        ...(tree.copy(written) as Record<string, unknown>),
        operationId: operation.id,
        'x-sandbox-source': 'openapi',
      })
      paths.set(operation.path, Object.fromEntries(target))
    }
  }
  const recursive = tree.components()
  const components =
    recursive.length === 0
      ? merged.components
      : {
          ...merged.components,
          schemas: { ...merged.components?.schemas, ...Object.fromEntries(recursive) },
        }
  return JSON.stringify(
    {
      ...merged,
      paths: Object.fromEntries(paths),
      ...(components === undefined ? {} : { components }),
    },
    null,
    2,
  )
}

/**
 * Copies of the document's parts as trees: a recursive schema's way back to
 * itself becomes a `$ref` to `#/components/schemas/openapi-recursive-N`,
 * written once there (the loaded document keeps its cycles as references).
 */
const treeOf = () => {
  const names = new Map<object, string>()
  const written = new Map<string, unknown>()
  const onPath = new Set<object>()
  const copy = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value
    const known = names.get(value)
    if (known !== undefined || onPath.has(value)) {
      const name = known ?? `openapi-recursive-${names.size + 1}`
      if (known === undefined) names.set(value, name)
      return { $ref: `#/components/schemas/${name}` }
    }
    onPath.add(value)
    const out = Array.isArray(value)
      ? value.map(copy)
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]))
    onPath.delete(value)
    // Named while inside it (a cycle came back to it): the copy is the component.
    const name = names.get(value)
    if (name !== undefined) {
      written.set(name, out)
      return { $ref: `#/components/schemas/${name}` }
    }
    return out
  }
  return { copy, components: (): [string, unknown][] => [...written] }
}
