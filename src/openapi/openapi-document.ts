/**
 * The parts of an OpenAPI 3.0 / 3.1 document the sandbox reads, after every
 * `$ref` is dereferenced. Loose on purpose: a document is the user's data,
 * checked where it is read (`compileOpenApiOperations`).
 */
export type JsonSchema = Record<string, unknown>

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: JsonSchema
  /** How the value is written (query: `form` by default, `deepObject`, `spaceDelimited`, `pipeDelimited`). */
  style?: string
  /** Query `form` and `deepObject`: one query pair per array item or object property (the default for `form`). */
  explode?: boolean
  /** A parameter given as a media type instead of a schema (`application/json`: the value is JSON text). */
  content?: Record<string, OpenApiMediaType>
}

export interface OpenApiMediaType {
  schema?: JsonSchema
  example?: unknown
  examples?: Record<string, { value?: unknown }>
}

export interface OpenApiHeader {
  required?: boolean
  schema?: JsonSchema
  example?: unknown
}

export interface OpenApiResponse {
  description?: string
  content?: Record<string, OpenApiMediaType>
  headers?: Record<string, OpenApiHeader>
}

export interface OpenApiOperation {
  operationId?: string
  summary?: string
  parameters?: OpenApiParameter[]
  requestBody?: { required?: boolean; content?: Record<string, OpenApiMediaType> }
  responses?: Record<string, OpenApiResponse>
}

export type OpenApiPathItem = Partial<Record<string, OpenApiOperation>> & {
  parameters?: OpenApiParameter[]
}

export interface OpenApiDocument {
  openapi: string
  info?: Record<string, unknown>
  servers?: { url: string }[]
  paths?: Record<string, OpenApiPathItem>
  components?: Record<string, unknown>
}

/** The `openapi` option: a path to a YAML or JSON file (Node runtimes), or the document itself. */
export type OpenApiSource = string | Readonly<Record<string, unknown>>

/** The HTTP methods an OpenAPI path item may describe, as the sandbox routes them. */
export const OPENAPI_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
