// Bundles the accounts portal's page (src/server/accounts/portal-app, Preact, the dashboard's
// style sheet) into dist/portal/: one script, one style sheet, index.html and the icon
// (scripts/bundle-page.mjs); the page asks /portal/api/me whether a cookie signs it in
// (docs/decisions/0061-accounts.md).
// Usage: node scripts/bundle-portal.mjs [outdir]
import { join, resolve } from 'node:path'
import { bundlePage } from './bundle-page.mjs'

const root = new URL('..', import.meta.url).pathname
await bundlePage({
  name: 'portal',
  entry: join(root, 'src/server/accounts/portal-app/main.tsx'),
  outdir: resolve(process.argv[2] ?? join(root, 'dist/portal')),
  assets: '/portal/assets',
})
