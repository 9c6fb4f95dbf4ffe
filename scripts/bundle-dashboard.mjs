// Bundles the dashboard's page (src/server/dashboard/app, Preact) into one
// script and one style sheet with content hashes in their names, plus an
// index.html that loads them: dist/dashboard/. No inline script or style, so
// the page runs under a strict Content-Security-Policy (docs/decisions/0010-dashboard-front-end.md).
// Usage: node scripts/bundle-dashboard.mjs [outdir]
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outdir = resolve(process.argv[2] ?? join(root, 'dist/dashboard'))

await rm(outdir, { recursive: true, force: true })
await mkdir(outdir, { recursive: true })
const result = await build({
  entryPoints: [join(root, 'src/server/dashboard/app/main.tsx')],
  outdir,
  entryNames: 'dashboard-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
})
const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file))
const script = outputs.find((name) => name.endsWith('.js'))
const style = outputs.find((name) => name.endsWith('.css'))
if (script === undefined || style === undefined)
  throw new Error('Failed to bundle the dashboard: esbuild wrote no script or no style sheet.')

// The page itself carries no data: it loads without the admin token.
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-sandbox dashboard</title>
<link rel="icon" type="image/svg+xml" href="/__sandbox/assets/icon.svg">
<link rel="stylesheet" href="/__sandbox/assets/${style}">
<script type="module" src="/__sandbox/assets/${script}"></script>
</head>
<body>
<div id="app"><p>Loading the dashboard… It needs JavaScript.</p></div>
</body>
</html>
`
await writeFile(join(outdir, 'index.html'), html)
// The page's icon (issue 31, item 15: without one, every browser logged a 404 for /favicon.ico).
const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f6f5c"/><g fill="#fff"><ellipse cx="16" cy="21" rx="6.5" ry="5.5"/><circle cx="8.5" cy="13" r="2.6"/><circle cx="13.5" cy="8.5" r="2.6"/><circle cx="18.5" cy="8.5" r="2.6"/><circle cx="23.5" cy="13" r="2.6"/></g></svg>
`
await writeFile(join(outdir, 'icon.svg'), icon)
