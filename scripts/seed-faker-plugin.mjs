// Used by scripts/build.mjs and scripts/bundle-cli.mjs.
/**
 * Replaces src/db/seed-faker.ts with `SimpleFaker` from the package root
 * (tree-shaken: no locale comes with it) and the pet names the seed picks
 * from, read now from the installed faker's English locale.
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
        contents: `export { SimpleFaker as SeedFaker } from '@faker-js/faker'
export const SEED_PET_NAMES = ${JSON.stringify(petNames)}
export const SEED_PRESET = undefined
`,
      }
    })
  },
}

/**
 * The CLI's src/db/seed-faker.ts (scripts/bundle-cli.mjs): the default seed's
 * pets as SEED_PRESET, computed now by the library's own seeding code, and
 * `SeedFaker` loading faker (`SimpleFaker`, bundled as CommonJS into
 * `fakerFile`, a sibling of the CLI's files) synchronously on first use. A start
 * with the default seed and count runs no faker and parses none of it.
 */
export const cliSeedFakerPlugin = (fakerFile) => ({
  name: 'cli-seed-faker',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]db[\\/]seed-faker\.ts$/ }, async () => {
      const { faker } = await import('@faker-js/faker/locale/en')
      const petNames = faker.rawDefinitions.animal?.pet_name
      // The library's seeding, bundled as it is published, computes the preset.
      const seeding = await build.esbuild.build({
        entryPoints: ['src/db/seed-pets.ts'],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'node',
        plugins: [seedFakerPlugin],
        logLevel: 'warning',
      })
      const { seedPets, DEFAULT_SEED, DEFAULT_PET_COUNT } = await import(
        `data:text/javascript;base64,${Buffer.from(seeding.outputFiles[0].text).toString('base64')}`
      )
      const pets = seedPets({ seed: DEFAULT_SEED, count: DEFAULT_PET_COUNT }).map((pet) => [
        pet.name,
        pet.categoryId,
      ])
      return {
        loader: 'js',
        resolveDir: 'src/db',
        contents: `import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SEED_PET_NAMES = ${JSON.stringify(petNames)}
export const SEED_PRESET = { seed: ${JSON.stringify(DEFAULT_SEED)}, pets: ${JSON.stringify(pets)} }

const FAKER_FILE = ${JSON.stringify(fakerFile)}
let SimpleFaker
const loadSimpleFaker = () => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, FAKER_FILE))) {
    const up = dirname(dir)
    if (up === dir)
      throw new Error('Failed to seed the pets: ' + FAKER_FILE + ' is missing beside the CLI. Reinstall petstore-sandbox (or run npm run build).')
    dir = up
  }
  return createRequire(import.meta.url)(join(dir, FAKER_FILE)).SimpleFaker
}
/** faker's SimpleFaker, loaded on first use. */
export class SeedFaker {
  constructor(options) {
    SimpleFaker ??= loadSimpleFaker()
    return new SimpleFaker(options)
  }
}
`,
      }
    })
  },
})
