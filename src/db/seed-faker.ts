import type { SimpleFaker } from '@faker-js/faker'
// English, for the pet names. Loading it costs ~30 ms in Node, so the published
// build replaces this whole module (scripts/build.mjs, `seedFakerPlugin`) with
// `SimpleFaker` from the package root (tree-shaken: no locale comes with it) and
// SEED_PET_NAMES computed at build time from the installed faker: the bundle
// carries the names, not the locale.
import { faker as englishFaker } from '@faker-js/faker/locale/en'

/**
 * The faker the seed runs: `SimpleFaker` (the seeded randomizer, `number` and
 * `helpers`, none of the locale modules a `Faker` builds and binds on
 * construction). Faker's own class extends it; the locale entry exports only
 * an instance, so the class is its parent's.
 */
export const SeedFaker = Object.getPrototypeOf(englishFaker.constructor) as typeof SimpleFaker

/**
 * The only locale definitions the seed reads: the English pet names
 * (`faker.animal.petName()` is `helpers.arrayElement` over them). A test checks
 * that the seed answers exactly what a faker over the whole `en` locale does.
 */
export const SEED_PET_NAMES: readonly string[] = englishFaker.rawDefinitions.animal?.pet_name ?? []

/** The pets of one seed, name and category id in id order, computed ahead of time. */
export interface SeedPreset {
  seed: number
  pets: readonly (readonly [name: string, categoryId: number])[]
}

/**
 * None here. The published CLI's build (scripts/bundle-cli.mjs) puts the
 * default seed's pets here, computed by this very code, and loads faker on
 * first use: a plain start runs no faker and parses none of it (issue 20).
 */
export const SEED_PRESET: SeedPreset | undefined = undefined

/**
 * Resolves once `SeedFaker` can run. Here at once; the published build
 * (scripts/seed-faker-plugin.mjs) loads faker on demand, so a browser awaits
 * this before seeding a seed or count its preset does not hold (decision 0051).
 *
 * @example
 * await loadSeedFaker()
 * const sandbox = createSandbox({ seed: 7 })
 */
export const loadSeedFaker = (): Promise<void> => Promise.resolve()
