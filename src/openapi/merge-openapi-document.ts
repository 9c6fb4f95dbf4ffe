import type { CompiledOperation } from './compile-openapi-operations.js'
import { schemaNameOf } from './load-openapi-document.js'
import type { OpenApiDocument, OpenApiPathItem } from './openapi-document.js'

/**
 * The sandbox's own OpenAPI document (JSON text) with the added operations
 * of the user's document under `paths`, each as the document wrote it (its
 * schemas inline: the user's document is dereferenced; a schema used more
 * than once becomes a component of its own, referred to) and tagged
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
  // Maps, not records indexed by the document's names (a path or method named __proto__).
  const paths = new Map(Object.entries(merged.paths ?? {}))
  const source = added.document.paths ?? {}
  // The document's path of each added operation (it may carry the base path, see compile).
  const found: {
    path: string
    method: string
    id: string
    item: OpenApiPathItem
    written: object
  }[] = []
  for (const [rawPath, item] of Object.entries(source)) {
    for (const operation of added.operations) {
      if (!rawPath.endsWith(operation.path)) continue
      const method = operation.method.toLowerCase()
      const written = Object.hasOwn(item, method) ? item[method] : undefined
      if (written === undefined) continue
      found.push({ path: operation.path, method, id: operation.id, item, written })
    }
  }
  const tree = treeOf(found.flatMap((f) => [f.item.parameters, f.written]))
  for (const { path, method, id, item, written } of found) {
    const target = new Map(Object.entries(paths.get(path) ?? {}))
    if (item.parameters !== undefined && !target.has('parameters'))
      target.set('parameters', tree.copy(item.parameters))
    target.set(method, {
      ...(tree.copy(written) as Record<string, unknown>),
      operationId: id,
      'x-sandbox-source': 'openapi',
    })
    paths.set(path, Object.fromEntries(target))
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

type Kind = 'schema' | 'other' | 'data'
/** Values of examples and extensions the served document copies at most (shared data is expanded). */
const MAX_DATA_NODES = 1_000_000
const SCHEMA_ONE = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
])
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'])
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs'])

/** What a child of a value in this kind of place is: a schema, more of the operation, or data. */
const childKind = (kind: Kind, key: string, child: unknown): Kind | 'schemas' => {
  if (kind === 'data') return 'data'
  if (kind === 'other')
    return key === 'schema'
      ? 'schema'
      : key.startsWith('x-') || key.startsWith('example')
        ? 'data'
        : 'other'
  if (SCHEMA_LISTS.has(key) && Array.isArray(child)) return 'schemas'
  if (SCHEMA_ONE.has(key)) return 'schema'
  if (SCHEMA_MAPS.has(key)) return 'schemas'
  return 'data'
}

/**
 * Copies of the document's parts as trees: a schema met more than once (a
 * shared component, a recursive schema) becomes a `$ref` to
 * `#/components/schemas/openapi-<its name>`, written once there; so the
 * served document is as small as the user's (Kubernetes' expanded to 400 MB)
 * and a cycle stays finite.
 */
const treeOf = (roots: readonly unknown[]) => {
  const counts = new Map<object, number>()
  const walked = new Set<object>()
  const count = (value: unknown, kind: Kind): void => {
    if (typeof value !== 'object' || value === null) return
    if (kind === 'schema') {
      const seen = counts.get(value) ?? 0
      counts.set(value, seen + 1)
      if (seen > 0) return
    } else if (walked.has(value)) return
    else walked.add(value)
    if (kind === 'data') return
    for (const [key, child] of Object.entries(value)) each(kind, key, child, count)
  }
  const each = (
    kind: Kind,
    key: string,
    child: unknown,
    visit: (value: unknown, kind: Kind) => unknown,
  ): unknown => {
    const next = childKind(kind, key, child)
    if (next !== 'schemas') return visit(child, next)
    if (Array.isArray(child)) return child.map((c) => visit(c, 'schema'))
    if (typeof child !== 'object' || child === null) return child
    return Object.fromEntries(Object.entries(child).map(([k, c]) => [k, visit(c, 'schema')]))
  }
  for (const root of roots) count(root, 'other')

  const names = new Map<object, string>()
  const taken = new Set<string>()
  const written = new Map<string, unknown>()
  const onPath = new Set<object>()
  let dataLeft = MAX_DATA_NODES
  const copy = (value: unknown, given: Kind = 'other'): unknown => {
    if (typeof value !== 'object' || value === null) return value
    // A schema met inside data (Stripe's `x-expansionResources` names schemas) is a schema:
    // referred to, not expanded again and again.
    const kind = given === 'data' && counts.has(value) ? 'schema' : given
    if (kind === 'data') {
      dataLeft -= 1
      if (dataLeft < 0) return null
    }
    if (kind === 'schema' && ((counts.get(value) ?? 0) > 1 || onPath.has(value))) {
      let name = names.get(value)
      if (name === undefined) {
        const base = `openapi-${(schemaNameOf(value) ?? 'schema').replace(/[^A-Za-z0-9._-]/g, '_')}`
        name = base
        for (let n = 2; taken.has(name); n += 1) name = `${base}-${n}`
        taken.add(name)
        names.set(value, name)
        written.set(name, copyBody(value, kind))
      }
      return { $ref: `#/components/schemas/${name}` }
    }
    return copyBody(value, kind)
  }
  const copyBody = (value: object, kind: Kind): unknown => {
    // Data that loops back on itself (an example made recursive through a $ref) ends there.
    if (onPath.has(value)) return null
    onPath.add(value)
    const out = Array.isArray(value)
      ? value.map((v) => copy(v, kind === 'data' ? 'data' : 'other'))
      : Object.fromEntries(
          Object.entries(value).map(([k, v]) => [
            k,
            kind === 'data' ? copy(v, 'data') : each(kind, k, v, copy),
          ]),
        )
    onPath.delete(value)
    return out
  }
  return {
    copy: (value: unknown) => copy(value),
    components: (): [string, unknown][] => [...written],
  }
}
