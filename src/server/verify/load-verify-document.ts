import type { OpenApiSource } from '../../openapi/openapi-document.js'
import type { DocumentOperation } from '../../verify/verify-types.js'

/**
 * `verify({ openapi })`: loads and compiles the document as the sandbox does
 * (the machinery imported only now), below the target's base path, and turns
 * each operation it adds into what `verify` probes, its answers checked
 * against the document. Rejects with "Failed to load the OpenAPI document: …".
 *
 * @example
 * const document = await loadVerifyDocument('extras.yaml', '/v1')
 */
export const loadVerifyDocument = async (
  source: OpenApiSource,
  basePath: string,
): Promise<DocumentOperation[]> => {
  const [{ loadOpenApiDocument }, { compileOpenApiOperations }, { checkDocumentAnswer }] =
    await Promise.all([
      import('../../openapi/load-openapi-document.js'),
      import('../../openapi/compile-openapi-operations.js'),
      import('../../openapi/check-document-answer.js'),
    ])
  const document = await loadOpenApiDocument(source)
  return compileOpenApiOperations(document, { basePath }).map((op) => ({
    id: op.id,
    method: op.method,
    path: op.path,
    parameters: op.parameters,
    body: op.body,
    role: op.role,
    collection:
      op.collection === undefined
        ? undefined
        : { path: op.collection.path, idField: op.collection.idField },
    check: (answer) => checkDocumentAnswer(op, answer),
  }))
}
