// Bundles the CLI into dist/cli/: Node resolves and compiles a few files
// instead of a few hundred modules, which halves the time to the first answer
// (docs/decisions/0008-bundled-cli.md). Dependencies are bundled; the
// package's own files (package.json, openapi/) are still read relative to
// dist/cli at run time.
//
// What a start loads (issue 20, start-up): two files, however many parts load
// later. Node's module loader pays for every file, and esbuild's code
// splitting cuts the code shared by lazily imported parts (verify, report,
// upstream mode, Redis, the judge) into one chunk per combination of parts
// using it: a plain start loaded 12 files. Here every literal `import('./…')`
// in src/ goes through one module of lazy parts (`lazyParts` below), so the
// CLI splits into its own code (petstore-sandbox.js), the code it shares with
// the lazy parts (one chunk), and the lazy parts (one chunk, loaded on first
// use). msw (and the GraphQL it imports), needed only for your own handlers, is
// bundled apart into dist/cli/msw/; faker, needed only for a seed or a count
// other than the default (whose pets are computed here), into
// dist/cli/seed-faker.cjs. Whitespace and syntax are minified (names kept, so
// stack traces stay readable): V8 parses fewer bytes.
//
// Writes .build/cli-meta.json (not published): test/server/cli-bundle.test.ts
// reads what the CLI bundle holds.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { build } from 'esbuild'
import { cliSeedFakerPlugin, seedFakerStaticPlugin } from './seed-faker-plugin.mjs'

// Bundled CommonJS dependencies (cors) call require for Node built-ins.
const banner = {
  js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
}

/** A literal dynamic import of one of our own modules: `import('./x.js')`, `import('../y/z.js')`. */
const OWN_DYNAMIC_IMPORT = /\bimport\((['"])(\.\.?\/[^'"]+)\1\)/g
const LAZY_PARTS = 'petstore-sandbox:lazy-parts'

const sourceOf = (importer, specifier) =>
  resolve(dirname(importer), specifier).replace(/\.js$/, '.ts')

const CLI_OPTIONS = {
  entryPoints: ['src/cli/bin.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The Redis client is loaded only with --store (issue 13): left out of the bundle, so
  // the default start-up parses nothing of it; it is a dependency, resolved at run time.
  external: ['ioredis', 'msw'],
  logLevel: 'warning',
}

/** Every module the CLI imports with a literal `import()`, by the name the lazy parts export it as. */
const lazyTargets = new Map()
const graph = await build({
  ...CLI_OPTIONS,
  outdir: 'dist/cli',
  splitting: true,
  write: false,
  metafile: true,
  plugins: [seedFakerStaticPlugin],
})
for (const input of Object.keys(graph.metafile.inputs).filter((i) => /^src\/.*\.tsx?$/.test(i)))
  for (const match of readFileSync(input, 'utf8').matchAll(OWN_DYNAMIC_IMPORT)) {
    const target = sourceOf(resolve(input), match[2])
    if (!lazyTargets.has(target)) lazyTargets.set(target, `part${lazyTargets.size}`)
  }

/** Routes `import('./x.js')` through the one module of lazy parts: `import(LAZY_PARTS).then((p) => p.partN)`. */
const lazyParts = {
  name: 'lazy-parts',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^petstore-sandbox:lazy-parts$/ }, () => ({
      path: LAZY_PARTS,
      namespace: 'lazy-parts',
    }))
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-parts' }, () => ({
      contents: [...lazyTargets]
        .map(([target, name]) => `export * as ${name} from ${JSON.stringify(target)}`)
        .join('\n'),
      resolveDir: resolve('src'),
      loader: 'ts',
    }))
    pluginBuild.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      let routed = 0
      const contents = source.replace(OWN_DYNAMIC_IMPORT, (_, _quote, specifier) => {
        routed++
        const name = lazyTargets.get(sourceOf(args.path, specifier))
        if (name === undefined)
          throw new Error(
            `bundle-cli: ${specifier} in ${args.path} was not found when scanning src/`,
          )
        return `import(${JSON.stringify(LAZY_PARTS)}).then((parts) => parts.${name})`
      })
      return routed === 0 ? undefined : { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' }
    })
  },
}

// faker's SimpleFaker as CommonJS, so that the CLI's seeding can load it synchronously on first
// use: the default seed's pets are computed at build time (cliSeedFakerPlugin), and a plain
// start parses no faker.
const FAKER_FILE = 'seed-faker.cjs'
await build({
  stdin: { contents: "export { SimpleFaker } from '@faker-js/faker'", resolveDir: '.' },
  outfile: `dist/cli/${FAKER_FILE}`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
})

// msw, as `import('msw')` in src/handlers/answer-with-own-handlers.ts finds it: the whole
// package, as the dynamic import asked for, with GraphQL split off (msw imports it lazily).
await build({
  entryPoints: { msw: 'msw' },
  outdir: 'dist/cli/msw',
  chunkNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner,
  logLevel: 'warning',
})

/** Points the CLI's `import('msw')` at the bundle above (the CLI's own file imports it: checked below). */
const MSW_APART = './msw/msw.js'
const mswApart = {
  name: 'msw-apart',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^msw$/ }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: MSW_APART, external: true }
        : {
            errors: [
              {
                text: `msw is imported statically by ${args.importer}: a plain start would parse it. Import it with import('msw') where it is needed.`,
              },
            ],
          },
    )
  },
}

const ENTRY = 'dist/cli/petstore-sandbox.js'
const result = await build({
  ...CLI_OPTIONS,
  outdir: 'dist/cli',
  entryNames: 'petstore-sandbox',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  banner,
  minifyWhitespace: true,
  minifySyntax: true,
  // seed-faker first: it replaces src/db/seed-faker.ts whole.
  plugins: [cliSeedFakerPlugin(FAKER_FILE), lazyParts, mswApart],
  external: ['ioredis'],
  metafile: true,
})

// The path to msw's bundle is relative to the file importing it: that must be the CLI's own.
for (const [file, output] of Object.entries(result.metafile.outputs))
  if (file !== ENTRY && output.imports.some((i) => i.path === MSW_APART))
    throw new Error(
      `bundle-cli: ${file} imports ${MSW_APART}, which resolves from dist/cli/ only. Keep import('msw') in code only the CLI's start uses.`,
    )

mkdirSync('.build', { recursive: true })
writeFileSync('.build/cli-meta.json', JSON.stringify(result.metafile))
