// Bundles the API reference page (`GET /__sandbox/docs`): Swagger UI (swagger-ui-dist, a dev
// dependency) and the page's own try-it settings (src/server/docs/app) into one script and one
// style sheet with content hashes in their names, plus a page that only links them:
// dist/docs/. Nothing inline and nothing fetched from elsewhere, so the page runs offline under
// the dashboard's strict Content-Security-Policy (docs/decisions/0045-api-reference-and-storybook.md).
// The server reads these files only when the page is first asked for: the CLI's start-up never
// touches them.
// Usage: node scripts/bundle-docs.mjs [outdir]
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, dirname, join, resolve } from 'node:path'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outdir = resolve(process.argv[2] ?? join(root, 'dist/docs'))

await rm(outdir, { recursive: true, force: true })
await mkdir(outdir, { recursive: true })
const result = await build({
  entryPoints: [join(root, 'src/server/docs/app/main.ts')],
  outdir,
  entryNames: 'docs-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  metafile: true,
  // Swagger UI's licence and its dependencies' notices ship beside the bundle (below).
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
})
const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file))
const script = outputs.find((name) => name.endsWith('.js'))
const style = outputs.find((name) => name.endsWith('.css'))
if (script === undefined || style === undefined)
  throw new Error('Failed to bundle the API reference: esbuild wrote no script or no style sheet.')

// Apache-2.0: the licence and NOTICE travel with the code they cover.
const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
await copyFile(join(swagger, 'LICENSE'), join(outdir, 'swagger-ui.LICENSE.txt'))
await copyFile(join(swagger, 'NOTICE'), join(outdir, 'swagger-ui.NOTICE.txt'))
await copyFile(
  join(swagger, 'swagger-ui-es-bundle.js.LICENSE.txt'),
  join(outdir, 'swagger-ui.THIRD-PARTY.txt'),
)

// %BASE_PATH% is the API's base path, filled in by the server (src/server/docs/docs-page.ts).
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="petstore-sandbox-base-path" content="%BASE_PATH%">
<title>petstore-sandbox API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__sandbox/docs/assets/${style}">
<script type="module" src="/__sandbox/docs/assets/${script}"></script>
</head>
<body>
<header class="docs-bar" id="try-it"><p>Loading the API reference… It needs JavaScript.</p></header>
<main id="reference"></main>
</body>
</html>
`
await writeFile(join(outdir, 'index.html'), html)
