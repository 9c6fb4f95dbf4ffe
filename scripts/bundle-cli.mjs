// Bundles the CLI into dist/cli/petstore-sandbox.js: Node resolves and
// compiles one module instead of a few hundred, which halves the time to the
// first answer (docs/decisions/0008-bundled-cli.md). Dependencies are bundled;
// the package's own files (package.json, openapi/) are still read relative to
// dist/cli at run time. What only some starts need (msw and GraphQL for your
// own handlers) is imported dynamically and split into dist/cli/chunks/, so a
// plain start never parses it (decision 0021).
import { build } from 'esbuild'
import { seedFakerPlugin } from './seed-faker-plugin.mjs'

await build({
  entryPoints: ['src/cli/bin.ts'],
  outdir: 'dist/cli',
  entryNames: 'petstore-sandbox',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS dependencies (cors) call require for Node built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [seedFakerPlugin],
  // The Redis client is loaded only with --store (issue 13): left out of the bundle, so
  // the default start-up parses nothing of it; it is a dependency, resolved at run time.
  external: ['ioredis'],
  logLevel: 'warning',
})
