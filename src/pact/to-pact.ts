import { PACKAGE_VERSION } from '../contract/package-info.js'
import type { JournalEntry } from '../journal/journal.js'
import { type Built, buildInteraction, noAnswer } from './build-interaction.js'
import { checkAgainstOpenApi, type OpenApiDocument } from './check-against-openapi.js'
import type { PactExport, PactInteraction, PactOptions, PactProblem } from './pact-document.js'

/** An exchange in one collection: its interaction when this run holds its first sight. */
interface Distinct {
  built: Built | undefined
  seqs: number[]
}

/**
 * The distinct exchanges of a run of entries, in the order each was first
 * seen, with the `seq` of every entry that repeated it, and the entries with
 * no HTTP answer. What a pact needs of the run: a repeat keeps only its seq.
 */
export interface PactCollection {
  add(entry: JournalEntry): void
  readonly distinct: ReadonlyMap<string, Distinct>
  readonly skipped: PactExport['skipped']
}

/**
 * Which run holds each exchange's interaction, across the runs (sessions) of
 * one pact: the run that comes first in the pact, whichever was read first.
 */
export type PactOwners = Map<string, { key: string; order: number; distinct: Distinct }>

/**
 * Collects entries for {@link pactOfCollections} one at a time: `pact
 * --from` keeps one collection per session while it streams a HAR, the
 * sessions sharing `owners` (`order`: the session's place in the pact), so an
 * exchange repeated in another session keeps one interaction in all.
 *
 * @example
 * const collection = createPactCollection()
 * for (const entry of entries) collection.add(entry)
 */
export const createPactCollection = (owners: PactOwners = new Map(), order = 0): PactCollection => {
  const distinct = new Map<string, Distinct>()
  const skipped: PactExport['skipped'] = []
  return {
    distinct,
    skipped,
    add(entry) {
      const reason = noAnswer(entry)
      if (reason !== undefined || entry.status === null || entry.response === null) {
        skipped.push({ seq: entry.seq, reason: reason ?? 'no HTTP answer' })
        return
      }
      const built = buildInteraction({ ...entry, status: entry.status, response: entry.response })
      if (built.unreplayable !== undefined) {
        skipped.push({ seq: entry.seq, reason: built.unreplayable })
        return
      }
      const mine = distinct.get(built.key)
      if (mine !== undefined) {
        mine.seqs.push(entry.seq)
        return
      }
      const owner = owners.get(built.key)
      if (owner !== undefined && owner.order < order) {
        // An earlier run holds it: this run keeps the seqs only (and the key's one copy).
        distinct.set(owner.key, { built: undefined, seqs: [entry.seq] })
        return
      }
      // First sight, or first in a run that comes before the one that held it.
      if (owner !== undefined) owner.distinct.built = undefined
      const key = owner?.key ?? built.key
      const first: Distinct = { built, seqs: [entry.seq] }
      distinct.set(key, first)
      owners.set(key, { key, order, distinct: first })
    },
  }
}

/**
 * Collections (one per session, in order) as one Pact v4 file: as
 * {@link toPact} over their entries one run after the other.
 *
 * @example
 * pactOfCollections([first, second], { consumer: 'web', provider: 'pets' }, document)
 */
export const pactOfCollections = (
  collections: readonly PactCollection[],
  options: PactOptions,
  document: OpenApiDocument,
): PactExport => {
  const interactions: PactInteraction[] = []
  const problems: PactProblem[] = []
  const skipped: PactExport['skipped'] = []
  const seen = new Map<string, number[]>()
  const descriptions = new Map<string, number>()
  for (const collection of collections) {
    skipped.push(...collection.skipped)
    for (const [key, { built, seqs: repeats }] of collection.distinct) {
      const before = seen.get(key)
      if (before !== undefined) {
        before.push(...repeats)
        continue
      }
      if (built === undefined)
        throw new Error(
          'Failed to assemble the pact: an exchange has no interaction in the first run that holds it. Create the collections in the order they are passed, sharing one owners map.',
        )
      const seqs = [...repeats]
      seen.set(key, seqs)
      const found = [...built.problems, ...checkAgainstOpenApi(document, built.answer)]
      if (found.length > 0) {
        problems.push({ interaction: built.interaction.description, seqs, problems: found })
        continue
      }
      // Descriptions are unique within a state: a second `listPets: 200` is `listPets: 200 (2)`.
      const state = built.interaction.providerStates[0]?.name ?? ''
      const named = `${built.interaction.description}\n${state}`
      const count = (descriptions.get(named) ?? 0) + 1
      descriptions.set(named, count)
      if (count > 1) built.interaction.description += ` (${count})`
      interactions.push(built.interaction)
    }
  }
  return {
    pact: {
      consumer: { name: options.consumer },
      provider: { name: options.provider },
      interactions,
      metadata: {
        pactSpecification: { version: '4.0' },
        'petstore-sandbox': { version: PACKAGE_VERSION },
      },
    },
    problems,
    skipped,
  }
}

/**
 * A session's journal as a Pact v4 file (contract §21): one `Synchronous/HTTP`
 * interaction per distinct exchange (method, path, query, request body,
 * status, response body; the scenario too, as it is the provider state),
 * described by operation and outcome. Time- and quota-bound headers, the
 * sandbox's own switches and every secret are left out; `Authorization`
 * becomes a placeholder the verifier fills from the provider state. Entries
 * without an HTTP answer are `skipped`; exchanges the OpenAPI document would
 * refuse (or the journal cut) are in `problems`, not in the pact.
 *
 * @example
 * const { pact, problems } = toPact(sandbox.journal.list(), { consumer: 'web', provider: 'pets' }, document)
 */
export const toPact = (
  entries: readonly JournalEntry[],
  options: PactOptions,
  document: OpenApiDocument,
): PactExport => {
  const collection = createPactCollection()
  for (const entry of entries) collection.add(entry)
  return pactOfCollections([collection], options, document)
}
