import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'
import { ApiError } from '../../../src/http/api-error.js'
import type { CompiledOperation } from '../../../src/openapi/compile-openapi-operations.js'
import {
  createOpenApiOperations,
  type OpenApiOperations,
} from '../../../src/openapi/create-openapi-operations.js'
import { resolveOptions } from '../../../src/sandbox/resolve-options.js'

// Small documents shaped as real APIs publish them, their operations called in process as the
// pipeline calls them, each answer checked by a plain ajv set up here (not the project's).
const { settings } = resolveOptions({})
const encoder = new TextEncoder()
const judge = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false })
addFormats.default(judge)

export type Doc = Record<string, unknown>

/** An OpenAPI 3.1 document of these paths and component schemas. */
export const doc = (paths: Doc, schemas: Doc = {}): Doc => ({
  openapi: '3.1.0',
  info: { title: 'test', version: '1' },
  servers: [{ url: 'https://api.example.test/v1' }],
  paths,
  components: { schemas },
})

/** A response whose body is JSON of this schema (`extra`: an example beside it). */
export const json = (schema: unknown, extra: Doc = {}) => ({
  description: 'ok',
  content: { 'application/json': { schema, ...extra } },
})

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** The document's operations (a path: a file of it). */
export const open = (source: Doc | string, seed = 20301205) =>
  createOpenApiOperations({ source, basePath: '/v1', seed })

export const byId = (api: OpenApiOperations, id: string): CompiledOperation => {
  const op = api.operations.find((o) => o.id === id)
  if (op === undefined) throw new Error(`no operation ${id}`)
  return op
}

/** Calls one operation as the pipeline would; an ApiError becomes its response. */
export const call = (
  api: OpenApiOperations,
  id: string,
  input: { params?: Record<string, string>; body?: unknown; session?: string; query?: string } = {},
) => {
  const op = byId(api, id)
  const url = new URL(`https://api.example.test/v1${op.path}${input.query ?? ''}`)
  const body = input.body === undefined ? null : encoder.encode(JSON.stringify(input.body))
  try {
    const response = api.answer(op, {
      request: {
        method: op.method,
        url: url.href,
        headers: body === null ? {} : { 'content-type': 'application/json' },
        body,
      },
      url,
      params: input.params ?? {},
      settings,
      session: input.session ?? 'default',
    })
    if (response instanceof Promise) throw new Error('an in-memory answer was a promise')
    const type = response.headers['Content-Type'] ?? ''
    return {
      ...response,
      json:
        response.body === null || !type.includes('json') ? undefined : JSON.parse(response.body),
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const response = error.toResponse()
    return { ...response, json: JSON.parse(String(response.body)) }
  }
}

/** The answer's status and body against what the document declares for that status. */
export const expectValidByDocument = (
  document: Doc,
  path: string,
  method: string,
  answer: { status: number; json: unknown },
) => {
  const paths = document.paths as Record<string, Record<string, Doc>>
  const responses = paths[path]?.[method]?.responses as Record<string, Doc>
  expect(Object.keys(responses), `${method} ${path} answered ${answer.status}`).toContain(
    String(answer.status),
  )
  const content = responses[String(answer.status)]?.content as
    | Record<string, { schema?: unknown }>
    | undefined
  const schema = content?.['application/json']?.schema
  if (schema === undefined) return
  const validate = judge.compile({ ...(schema as Doc), components: document.components } as Doc)
  expect(validate(answer.json), `${method} ${path}: ${judge.errorsText(validate.errors)}`).toBe(
    true,
  )
}
