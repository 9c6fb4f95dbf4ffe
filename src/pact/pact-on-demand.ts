// What `sandbox.pact()` imports on first use (one chunk with the OpenAPI document):
// an app that never exports a pact never loads it.
import document from '../../openapi/petstore-sandbox.openapi.json' with { type: 'json' }
import type { JournalEntry } from '../journal/journal.js'
import type { OpenApiOperations } from '../openapi/create-openapi-operations.js'
import { mergeOpenApiDocument } from '../openapi/merge-openapi-document.js'
import type { OpenApiDocument } from './check-against-openapi.js'
import type { PactExport, PactOptions } from './pact-document.js'
import { type PactCollection, pactOfCollections, toPact } from './to-pact.js'

/** The operations an OpenAPI document added to the sandbox (the `openapi` option). */
export type AddedDocument = Pick<OpenApiOperations, 'document' | 'operations'>

const OWN = document as unknown as OpenApiDocument
/** Each sandbox's whole document, merged once (the document is loaded once per sandbox). */
const merged = new WeakMap<AddedDocument, OpenApiDocument>()

/**
 * The document a sandbox serves at `/__sandbox/openapi.json`: its own, with
 * the operations of the `openapi` option's document merged in (issue 37).
 */
const wholeDocument = (added: AddedDocument | undefined): OpenApiDocument => {
  if (added === undefined) return OWN
  let whole = merged.get(added)
  if (whole === undefined) {
    whole = JSON.parse(mergeOpenApiDocument(JSON.stringify(OWN), added)) as OpenApiDocument
    merged.set(added, whole)
  }
  return whole
}

/**
 * The journal's entries as a Pact v4 file, pre-checked against the sandbox's
 * whole OpenAPI document (the one `/__sandbox/openapi.json` serves: its own,
 * and the operations `added` by the `openapi` option).
 *
 * @example
 * const { pact } = pactOfJournal(entries, { consumer: 'web', provider: 'pets' })
 */
export const pactOfJournal = (
  entries: readonly JournalEntry[],
  options: PactOptions,
  added?: AddedDocument,
): PactExport => toPact(entries, options, wholeDocument(added))

/**
 * Collected runs of entries (`pact --from`: one per session) as one Pact v4
 * file, pre-checked against the sandbox's own document and the operations
 * `added` by an OpenAPI document (`pact --openapi FILE`).
 *
 * @example
 * const { pact } = pactOfCollected([collection], { consumer: 'web', provider: 'pets' })
 */
export const pactOfCollected = (
  collections: readonly PactCollection[],
  options: PactOptions,
  added?: AddedDocument,
): PactExport => pactOfCollections(collections, options, wholeDocument(added))
