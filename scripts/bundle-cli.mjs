// Bundles the CLI into dist/cli/petstore-sandbox.js: Node resolves and
// compiles one module instead of a few hundred, which halves the time to the
// first answer (docs/decisions/0008-bundled-cli.md). Dependencies are bundled;
// the package's own files (package.json, openapi/) are still read relative to
// dist/cli at run time.
//
// One file, not split into chunks (issue 20, start-up): Node's module loader
// pays for every file a start imports, and esbuild's splitting cut the code
// shared by the lazily imported parts (verify, report, the control API, upstream
// mode, Redis) into some twenty chunks a plain start had to load. Without
// splitting, those parts stay in the file, each behind its own `import()`: V8
// only pre-parses them, and their top-level code runs when first used. msw (and
// GraphQL, which msw imports), needed only for your own handlers, are the one
// exception: bundled apart into dist/cli/msw/, so a plain start never parses them
// (decision 0021). The CLI is minified (whitespace and syntax, names kept for
// readable stack traces): V8 parses fewer bytes.
//
// Writes .build/cli-meta.json (not published): test/modules/cli-bundle.test.ts
// reads what the CLI bundle holds.
import { mkdirSync, writeFileSync } from 'node:fs'
import { build } from 'esbuild'
import { seedFakerPlugin } from './seed-faker-plugin.mjs'

// Bundled CommonJS dependencies (cors) call require for Node built-ins.
const banner = {
  js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
}

// msw as `import('msw')` in src/handlers/answer-with-own-handlers.ts finds it: the whole
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

/** Points the CLI's `import('msw')` at the bundle above. */
const mswApart = {
  name: 'msw-apart',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^msw$/ }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: './msw/msw.js', external: true }
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

const result = await build({
  entryPoints: ['src/cli/bin.ts'],
  outfile: 'dist/cli/petstore-sandbox.js',
  bundle: true,
  splitting: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner,
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [seedFakerPlugin, mswApart],
  // The Redis client is loaded only with --store (issue 13): left out of the bundle, so
  // the default start-up parses nothing of it; it is a dependency, resolved at run time.
  external: ['ioredis'],
  metafile: true,
  logLevel: 'warning',
})

mkdirSync('.build', { recursive: true })
writeFileSync('.build/cli-meta.json', JSON.stringify(result.metafile))
