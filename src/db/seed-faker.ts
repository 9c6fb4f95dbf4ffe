import type { Faker, LocaleDefinition } from '@faker-js/faker'
// English, for the pet names. Loading it costs ~30 ms in Node, so the published
// build replaces this whole module (scripts/build.mjs, `seedFakerPlugin`) with
// the `Faker` class and SEED_LOCALE's value computed at build time from the
// installed faker: the bundle carries the ~40 names, not the locale.
import { faker as englishFaker } from '@faker-js/faker/locale/en'

/** The faker class; its modules read definitions only when called. */
export const FakerClass = englishFaker.constructor as typeof Faker

/**
 * The only locale definitions the seed reads: `animal.pet_name` (for
 * `animal.petName()`; `number.int()` reads none). A test checks that a faker
 * over this locale answers exactly what one over the whole `en` locale does.
 */
export const SEED_LOCALE: LocaleDefinition = {
  animal: { pet_name: englishFaker.rawDefinitions.animal?.pet_name ?? [] },
}
