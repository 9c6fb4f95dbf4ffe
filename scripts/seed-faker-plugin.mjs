// Used by scripts/build.mjs and scripts/bundle-cli.mjs.
/**
 * Replaces src/db/seed-faker.ts with the faker class from the package root
 * (tree-shaken: no locale comes with it) and the seed's locale definitions,
 * read now from the installed faker's English locale.
 */
export const seedFakerPlugin = {
  name: 'seed-faker',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]db[\\/]seed-faker\.ts$/ }, async () => {
      const { faker } = await import('@faker-js/faker/locale/en')
      const petNames = faker.rawDefinitions.animal?.pet_name
      if (!Array.isArray(petNames) || petNames.length === 0)
        throw new Error('seed-faker: the installed faker has no en animal.pet_name')
      return {
        loader: 'js',
        resolveDir: 'src/db',
        contents: `export { Faker as FakerClass } from '@faker-js/faker'
export const SEED_LOCALE = { animal: { pet_name: ${JSON.stringify(petNames)} } }
`,
      }
    })
  },
}
