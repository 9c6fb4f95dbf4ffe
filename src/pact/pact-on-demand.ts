// What `sandbox.pact()` imports on first use (one chunk with the OpenAPI document):
// an app that never exports a pact never loads it.
import document from '../../openapi/petstore-sandbox.openapi.json' with { type: 'json' }
import type { JournalEntry } from '../journal/journal.js'
import type { OpenApiDocument } from './check-against-openapi.js'
import type { PactExport, PactOptions } from './pact-document.js'
import { type PactCollection, pactOfCollections, toPact } from './to-pact.js'

/**
 * The journal's entries as a Pact v4 file, pre-checked against the sandbox's
 * own OpenAPI document (the one `/__sandbox/openapi.json` serves).
 *
 * @example
 * const { pact } = pactOfJournal(entries, { consumer: 'web', provider: 'pets' })
 */
export const pactOfJournal = (entries: readonly JournalEntry[], options: PactOptions): PactExport =>
  toPact(entries, options, document as unknown as OpenApiDocument)

/**
 * Collected runs of entries (`pact --from`: one per session) as one Pact v4
 * file, pre-checked as {@link pactOfJournal} is.
 *
 * @example
 * const { pact } = pactOfCollected([collection], { consumer: 'web', provider: 'pets' })
 */
export const pactOfCollected = (
  collections: readonly PactCollection[],
  options: PactOptions,
): PactExport => pactOfCollections(collections, options, document as unknown as OpenApiDocument)
