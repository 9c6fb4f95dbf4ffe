// Bundles the accounts portal's page (src/server/accounts/portal-app, Preact, the dashboard's
// style sheet) into one script and one style sheet with content hashes in their names, plus an
// index.html that loads them: dist/portal/. No inline script or style, so the page runs under
// the dashboard's strict Content-Security-Policy (docs/decisions/0061-accounts.md).
// Usage: node scripts/bundle-portal.mjs [outdir]
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outdir = resolve(process.argv[2] ?? join(root, 'dist/portal'))

await rm(outdir, { recursive: true, force: true })
await mkdir(outdir, { recursive: true })
const result = await build({
  entryPoints: [join(root, 'src/server/accounts/portal-app/main.tsx')],
  outdir,
  entryNames: 'portal-[hash]',
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
  throw new Error('Failed to bundle the portal: esbuild wrote no script or no style sheet.')

// The page carries no data: it asks /portal/api/me whether a cookie signs it in.
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-sandbox portal</title>
<link rel="icon" type="image/svg+xml" href="/portal/assets/icon.svg">
<link rel="stylesheet" href="/portal/assets/${style}">
<script type="module" src="/portal/assets/${script}"></script>
</head>
<body>
<div id="app"><p>Loading the portal… It needs JavaScript.</p></div>
</body>
</html>
`
await writeFile(join(outdir, 'index.html'), html)
const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f6f5c"/><g fill="#fff"><ellipse cx="16" cy="21" rx="6.5" ry="5.5"/><circle cx="8.5" cy="13" r="2.6"/><circle cx="13.5" cy="8.5" r="2.6"/><circle cx="18.5" cy="8.5" r="2.6"/><circle cx="23.5" cy="13" r="2.6"/></g></svg>
`
await writeFile(join(outdir, 'icon.svg'), icon)
