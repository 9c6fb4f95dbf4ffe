import type { Pact, PactInteraction } from './pact-document.js'

/** What makes two interactions one: everything but the description (numbered per file). */
const contentKey = (interaction: PactInteraction): string => {
  const { description: _description, ...rest } = interaction
  return JSON.stringify(rest)
}

/** `listPets: 200 (2)` → `listPets: 200`. */
const baseOf = (description: string): string => description.replace(/ \(\d+\)$/, '')

/** An interaction the merge can read: an object with a description and a list of provider states. */
const isInteraction = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false
  const interaction = value as Partial<PactInteraction>
  return typeof interaction.description === 'string' && Array.isArray(interaction.providerStates)
}

const isPact = (value: unknown): value is Pact => {
  if (typeof value !== 'object' || value === null) return false
  const pact = value as Partial<Pact>
  return (
    typeof pact.consumer?.name === 'string' &&
    typeof pact.provider?.name === 'string' &&
    Array.isArray(pact.interactions) &&
    pact.interactions.every(isInteraction)
  )
}

/**
 * Merges the interactions of `added` into the pact file `existing` (parsed
 * JSON, or undefined for none), as Pact's own libraries merge the pact of each
 * test into one file: an interaction already there (the same request, answer
 * and provider state) is kept once; a new one whose description and state a
 * kept one has is numbered on (`listPets: 200 (3)`). Throws a TypeError when
 * `existing` is not a pact of the same consumer and provider.
 *
 * @example
 * const file = mergePacts(JSON.parse(text), exported.pact)
 */
export const mergePacts = (existing: unknown, added: Pact): Pact => {
  if (existing === undefined) return added
  if (!isPact(existing))
    throw new TypeError(
      'Failed to write the pact: the file there is not a Pact file (consumer, provider, interactions, each with a description and providerStates). Remove it or choose another dir.',
    )
  if (
    existing.consumer.name !== added.consumer.name ||
    existing.provider.name !== added.provider.name
  )
    throw new TypeError(
      `Failed to write the pact: the file there is the pact of ${existing.consumer.name} and ${existing.provider.name}, not of ${added.consumer.name} and ${added.provider.name}.`,
    )
  const interactions = [...existing.interactions]
  const kept = new Set(interactions.map(contentKey))
  const named = new Map<string, number>()
  const nameKey = (description: string, interaction: PactInteraction): string =>
    `${baseOf(description)}\n${interaction.providerStates[0]?.name ?? ''}`
  for (const interaction of interactions) {
    const key = nameKey(interaction.description, interaction)
    named.set(key, (named.get(key) ?? 0) + 1)
  }
  for (const interaction of added.interactions) {
    const content = contentKey(interaction)
    if (kept.has(content)) continue
    kept.add(content)
    const base = baseOf(interaction.description)
    const key = nameKey(base, interaction)
    const count = (named.get(key) ?? 0) + 1
    named.set(key, count)
    interactions.push({ ...interaction, description: count > 1 ? `${base} (${count})` : base })
  }
  return { ...added, interactions }
}
