// Used by scripts/build.mjs and scripts/bundle-cli.mjs.
const petNamesOfEnglish = async () => {
  const { faker } = await import('@faker-js/faker/locale/en')
  const petNames = faker.rawDefinitions.animal?.pet_name
  if (!Array.isArray(petNames) || petNames.length === 0)
    throw new Error('seed-faker: the installed faker has no en animal.pet_name')
  return petNames
}

/**
 * Replaces src/db/seed-faker.ts with `SimpleFaker` from the package root
 * (tree-shaken: no locale comes with it) and the pet names the seed picks
 * from, read now from the installed faker's English locale. Faker is
 * imported statically: the build-time seeding below and the CLI's faker file
 * use it.
 */
export const seedFakerStaticPlugin = {
  name: 'seed-faker-static',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]db[\\/]seed-faker\.ts$/ }, async () => ({
      loader: 'js',
      resolveDir: 'src/db',
      contents: `export { SimpleFaker as SeedFaker } from '@faker-js/faker'
export const SEED_PET_NAMES = ${JSON.stringify(await petNamesOfEnglish())}
export const SEED_PRESET = undefined
export const loadSeedFaker = () => Promise.resolve()
`,
    }))
  },
}

/**
 * The default seed's first `count` pets ([name, categoryId] in id order),
 * computed now by the library's own seeding code, bundled as it is published.
 */
const presetPets = async (esbuild, counted) => {
  const seeding = await esbuild.build({
    stdin: {
      contents: `export * from './src/db/seed-pets.ts'
export { PAGINATED_PET_COUNT } from './src/scenarios/built-in/paginated.ts'`,
      resolveDir: '.',
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    plugins: [seedFakerStaticPlugin],
    logLevel: 'warning',
  })
  const seeding_ = await import(
    `data:text/javascript;base64,${Buffer.from(seeding.outputFiles[0].text).toString('base64')}`
  )
  const { seedPets, DEFAULT_SEED } = seeding_
  const pets = seedPets({ seed: DEFAULT_SEED, count: counted(seeding_) }).map((pet) => [
    pet.name,
    pet.categoryId,
  ])
  return { seed: DEFAULT_SEED, pets }
}

/**
 * The published dist's src/db/seed-faker.ts (decision 0051): the default
 * seed's pets as SEED_PRESET (as many as the built-in \`paginated\` scenario
 * seeds), so that a sandbox on the default seed never runs faker, and faker
 * (\`SimpleFaker\`) loaded only when another seed or count needs it: in a
 * browser by \`loadSeedFaker()\` (its own chunk; \`startSandbox\` awaits it when
 * its options need it), in Node synchronously on first use (dist/cli/seed-faker.cjs,
 * the CLI's CommonJS SimpleFaker). The browser's start-up bundle carries no faker.
 */
export const seedFakerPlugin = {
  name: 'seed-faker',
  setup(build) {
    // SimpleFaker alone: \`import('@faker-js/faker')\` would keep the whole namespace, every locale.
    build.onResolve({ filter: /^seed-simple-faker$/ }, () => ({
      path: 'seed-simple-faker',
      namespace: 'seed-faker',
    }))
    build.onLoad({ filter: /.*/, namespace: 'seed-faker' }, () => ({
      loader: 'js',
      resolveDir: '.',
      contents: "export { SimpleFaker } from '@faker-js/faker'",
    }))
    build.onLoad({ filter: /[\\/]src[\\/]db[\\/]seed-faker\.ts$/ }, async () => {
      // The default count and the built-in `paginated` scenario's (its first pets are the default's).
      const preset = await presetPets(build.esbuild, (seeding) =>
        Math.max(seeding.DEFAULT_PET_COUNT, seeding.PAGINATED_PET_COUNT),
      )
      return {
        loader: 'js',
        resolveDir: 'src/db',
        contents: `export const SEED_PET_NAMES = ${JSON.stringify(await petNamesOfEnglish())}
export const SEED_PRESET = ${JSON.stringify(preset)}

let SimpleFaker
/** Loads faker's SimpleFaker (in a browser: a chunk of its own, fetched now). */
export const loadSeedFaker = async () => {
  SimpleFaker ??= (await import('seed-simple-faker')).SimpleFaker
}
const loadNow = () => {
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module')
  if (nodeModule === undefined)
    throw new Error('Failed to seed the pets: this seed and count need faker, which a browser loads on demand, and it is not loaded. Create the sandbox with startSandbox (it loads faker when its options need it), or await loadSeedFaker() from petstore-sandbox first.')
  // SimpleFaker alone, bundled as CommonJS for the CLI (scripts/bundle-cli.mjs): dist/cli/ beside dist/chunks/.
  return nodeModule.createRequire(import.meta.url)('../cli/seed-faker.cjs').SimpleFaker
}
/** faker's SimpleFaker, loaded on first use. */
export class SeedFaker {
  constructor(options) {
    SimpleFaker ??= loadNow()
    return new SimpleFaker(options)
  }
}
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
      const petNames = await petNamesOfEnglish()
      const { seed, pets } = await presetPets(build.esbuild, (seeding) => seeding.DEFAULT_PET_COUNT)
      return {
        loader: 'js',
        resolveDir: 'src/db',
        contents: `import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SEED_PET_NAMES = ${JSON.stringify(petNames)}
export const SEED_PRESET = { seed: ${JSON.stringify(seed)}, pets: ${JSON.stringify(pets)} }
export const loadSeedFaker = () => Promise.resolve()

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
