// Bundles the dashboard's page (src/server/dashboard/app, Preact) into dist/dashboard/: one
// script, one style sheet, index.html and the icon (scripts/bundle-page.mjs).
// Usage: node scripts/bundle-dashboard.mjs [outdir]
import { join, resolve } from 'node:path'
import { bundlePage } from './bundle-page.mjs'

const root = new URL('..', import.meta.url).pathname
await bundlePage({
  name: 'dashboard',
  entry: join(root, 'src/server/dashboard/app/main.tsx'),
  outdir: resolve(process.argv[2] ?? join(root, 'dist/dashboard')),
  assets: '/__sandbox/assets',
})
