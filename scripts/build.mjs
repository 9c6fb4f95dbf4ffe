// `npm run build`: the published dist (docs/decisions/0016-light-bundled-dist.md).
//
// 1. tsc writes the .d.ts files (declarations only); those no entry reaches are
//    deleted (scripts/prune-declarations.mjs).
// 2. esbuild bundles each package entry with code splitting: shared code goes
//    to dist/chunks/, so `instanceof ApiError` holds across entries. msw stays
//    external (it is a peer: the user's copy must be the one intercepting);
//    every other dependency is bundled and tree-shaken, so an entry carries
//    only the parts of zod, faker and @msw/data it uses, and Node resolves a
//    handful of files instead of a few hundred.
// 3. The CLI is bundled on its own into one file (scripts/bundle-cli.mjs), and
//    the dashboard's page into dist/dashboard/ (scripts/bundle-dashboard.mjs).
//
// Chunks live two folders deep (dist/chunks/), like the sources they come
// from (src/server/…): `new URL('../../openapi/…', import.meta.url)` in the
// server finds the package's openapi/ folder from either place.
//
// The esbuild metafile goes to .build/meta.json (not published): the size
// check and the module-load test (test/modules/) read what each entry holds.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { build } from 'esbuild'
import { pruneDeclarations } from './prune-declarations.mjs'
import { refParserFsPlugin } from './ref-parser-fs-plugin.mjs'
import { seedFakerPlugin } from './seed-faker-plugin.mjs'

export const ENTRIES = {
  index: 'src/index.ts',
  'runtimes/node': 'src/runtimes/node.ts',
  'runtimes/browser': 'src/runtimes/browser.ts',
  'runtimes/playwright': 'src/runtimes/playwright.ts',
  'server/index': 'src/server/index.ts',
  // The matchers of issue 23: expect.extend for vitest and Jest.
  'runtimes/matchers': 'src/runtimes/matchers.ts',
  'runtimes/vitest': 'src/runtimes/vitest.ts',
  'runtimes/jest': 'src/runtimes/jest.ts',
}

rmSync('dist', { recursive: true, force: true })

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' })
// Only what the entries' declarations reach is published (state/redis/lua.d.ts is not).
pruneDeclarations('dist')

const result = await build({
  entryPoints: ENTRIES,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  // Neutral: the same chunks serve Node and browser entries; Node built-ins
  // (only the server uses them) stay imports.
  platform: 'neutral',
  mainFields: ['module', 'main'],
  conditions: ['import', 'default'],
  target: ['node20', 'es2022'],
  // ioredis: a dependency loaded only with a Redis store (`import('ioredis')`), resolved at run time.
  // vitest: the user's own (petstore-sandbox/vitest extends its expect).
  external: ['msw', 'msw/*', 'node:*', 'ioredis', 'vitest', 'rettime', 'outvariant'],
  treeShaking: true,
  metafile: true,
  plugins: [seedFakerPlugin, refParserFsPlugin],
  legalComments: 'none',
  logLevel: 'warning',
})

mkdirSync('.build', { recursive: true })
writeFileSync('.build/meta.json', JSON.stringify(result.metafile))

await import('./bundle-cli.mjs')
// The dashboard's page (Preact), into dist/dashboard/.
execFileSync(process.execPath, ['scripts/bundle-dashboard.mjs'], { stdio: 'inherit' })
// The accounts portal's page (Preact, the dashboard's style), into dist/portal/.
execFileSync(process.execPath, ['scripts/bundle-portal.mjs'], { stdio: 'inherit' })
// The API reference page (Swagger UI), into dist/docs/: read by the server on first use only.
execFileSync(process.execPath, ['scripts/bundle-docs.mjs'], { stdio: 'inherit' })
