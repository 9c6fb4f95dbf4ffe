// Bundles one of the server's pages (Preact) into one script and one style sheet with content
// hashes in their names, plus an index.html that loads them and the page's icon. No inline
// script or style, so the page runs under a strict Content-Security-Policy
// (docs/decisions/0010-dashboard-front-end.md). Used by bundle-dashboard.mjs and
// bundle-portal.mjs, one page each.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { build } from 'esbuild'

// The page's icon (issue 31, item 15: without one, every browser logged a 404 for /favicon.ico).
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f6f5c"/><g fill="#fff"><ellipse cx="16" cy="21" rx="6.5" ry="5.5"/><circle cx="8.5" cy="13" r="2.6"/><circle cx="13.5" cy="8.5" r="2.6"/><circle cx="18.5" cy="8.5" r="2.6"/><circle cx="23.5" cy="13" r="2.6"/></g></svg>
`

/**
 * @param {{ name: string, entry: string, outdir: string, assets: string }} page
 *   name: the page's name (file names, title); entry: its main.tsx; assets: the URL path its
 *   files are served under (`/__sandbox/assets`).
 */
export const bundlePage = async ({ name, entry, outdir, assets }) => {
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  const result = await build({
    entryPoints: [entry],
    outdir,
    entryNames: `${name}-[hash]`,
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
  const script = outputs.find((file) => file.endsWith('.js'))
  const style = outputs.find((file) => file.endsWith('.css'))
  if (script === undefined || style === undefined)
    throw new Error(`Failed to bundle the ${name}: esbuild wrote no script or no style sheet.`)
  // The page itself carries no data: what it shows, it asks for once loaded.
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-sandbox ${name}</title>
<link rel="icon" type="image/svg+xml" href="${assets}/icon.svg">
<link rel="stylesheet" href="${assets}/${style}">
<script type="module" src="${assets}/${script}"></script>
</head>
<body>
<div id="app"><p>Loading the ${name}… It needs JavaScript.</p></div>
</body>
</html>
`
  await writeFile(join(outdir, 'index.html'), html)
  await writeFile(join(outdir, 'icon.svg'), ICON)
}
