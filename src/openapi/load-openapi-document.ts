import { $RefParser } from '@apidevtools/json-schema-ref-parser'
import type { OpenApiDocument, OpenApiSource } from './openapi-document.js'

/** A refused document: the message names what to fix. Runtimes print it as one line. */
export class OpenApiDocumentError extends Error {
  constructor(reason: string) {
    super(`Failed to load the OpenAPI document: ${reason}`)
    this.name = 'OpenApiDocumentError'
  }
}

const describe = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error'

/**
 * Reads the document (a file path, YAML or JSON, or the object itself),
 * dereferences every `$ref` (files next to it too; never over HTTP) and
 * checks it is OpenAPI 3.0 or 3.1. Throws an OpenApiDocumentError.
 *
 * @example
 * const document = await loadOpenApiDocument('examples/openapi/petstore-extras.yaml')
 */
export const loadOpenApiDocument = async (source: OpenApiSource): Promise<OpenApiDocument> => {
  if (typeof source !== 'string' && (typeof source !== 'object' || source === null))
    throw new OpenApiDocumentError(
      `the openapi option must be a file path or the document as an object, got ${source === null ? 'null' : typeof source}. Fix the option.`,
    )
  let parsed: unknown
  try {
    const parser = new $RefParser()
    // A copy: the caller's object stays as it was (dereferencing rewrites in place).
    const input = typeof source === 'string' ? source : structuredClone(source)
    parsed = await parser.dereference(input as Parameters<$RefParser['dereference']>[0], {
      resolve: { http: false },
      dereference: { circular: false },
    })
  } catch (error) {
    const reason = describe(error)
    throw new OpenApiDocumentError(
      /circular/i.test(reason)
        ? `it has a recursive schema ($ref cycle), which the sandbox cannot generate data for. Fix the schema.`
        : `${reason}${reason.endsWith('.') ? '' : '.'} Fix the file or the path.`,
    )
  }
  const document = parsed as Partial<OpenApiDocument> | null
  const version = typeof document?.openapi === 'string' ? document.openapi : undefined
  if (version === undefined || !/^3\.[01]\.\d+$/.test(version))
    throw new OpenApiDocumentError(
      `"openapi" is ${version === undefined ? 'missing' : `"${version}"`}; the sandbox reads OpenAPI 3.0.x and 3.1.x. Fix the document.`,
    )
  if (typeof document?.paths !== 'object' || document.paths === null)
    throw new OpenApiDocumentError('it has no "paths" object. Add the operations under "paths".')
  return document as OpenApiDocument
}
