import document from '../../openapi/petstore-sandbox.openapi.json' with { type: 'json' }

export type JsonObject = Record<string, unknown>

export interface OpenApiOperation {
  template: string
  method: string
  operation: JsonObject
  pathItem: JsonObject
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const ROOT: unknown = document

const lookUp = (pointer: string): unknown => {
  let node: unknown = ROOT
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    node = isObject(node) ? node[key] : undefined
  }
  return node
}

/**
 * Read access to openapi/petstore-sandbox.openapi.json for the document
 * tests: objects by JSON pointer with `$ref`s followed, and schemas with
 * every `$ref` inlined (a `$ref`'s siblings, such as `default`, win).
 *
 * @example
 * openApiDocument.at('/components/schemas/Pet') // { type: 'object', ... }
 */
export const openApiDocument = {
  isObject,
  /** The object at `pointer`, following a `$ref` there; throws when there is none. */
  at(pointer: string): JsonObject {
    const node = lookUp(pointer)
    if (!isObject(node)) throw new Error(`The OpenAPI document has no object at ${pointer}.`)
    const ref = node.$ref
    return typeof ref === 'string' ? openApiDocument.at(ref.slice(1)) : node
  },
  /** `node` with every `$ref` inside it replaced by its target. */
  inline(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => openApiDocument.inline(item))
    if (!isObject(node)) return node
    const { $ref, ...rest } = node
    const base =
      typeof $ref === 'string' ? openApiDocument.inline(openApiDocument.at($ref.slice(1))) : {}
    const own = Object.fromEntries(
      Object.entries(rest).map(([key, value]) => [key, openApiDocument.inline(value)]),
    )
    return isObject(base) ? { ...base, ...own } : own
  },
  /** Every operation: its path template, method and object, and its path item. */
  operations(): OpenApiOperation[] {
    const found: OpenApiOperation[] = []
    for (const [template, pathItem] of Object.entries(openApiDocument.at('/paths'))) {
      if (!isObject(pathItem)) continue
      for (const method of METHODS) {
        const operation = pathItem[method]
        if (isObject(operation)) found.push({ template, method, operation, pathItem })
      }
    }
    return found
  },
  /** Every response an operation declares: its path template, `operationId status`, status and object. */
  responses(): { template: string; where: string; status: string; response: JsonObject }[] {
    return openApiDocument.operations().flatMap(({ template, method, operation }) => {
      const pointer = `/paths/${template.replaceAll('/', '~1')}/${method}/responses`
      return Object.keys(openApiDocument.at(pointer)).map((status) => ({
        template,
        where: `${String(operation.operationId)} ${status}`,
        status,
        response: openApiDocument.at(`${pointer}/${status}`),
      }))
    })
  },
}
