import { dirname, join } from 'node:path'
import type { SandboxResponse } from '../../http/types.js'
import { DASHBOARD_HEADERS } from '../dashboard/dashboard-headers.js'
import {
  type DashboardAsset,
  findDashboardDir,
  loadDashboardAssets,
} from '../dashboard/load-dashboard-assets.js'
import type { PortalPage } from './handle-portal-request.js'

/**
 * The portal's page (`GET /portal`, its files under `/portal/assets/`): built
 * by scripts/bundle-portal.mjs into dist/portal beside the dashboard, read
 * into memory once at start, served under the dashboard's CSP (contract §14).
 *
 * @example
 * const page = createPortalPage()
 * await page.load()
 */
export const createPortalPage = (
  dir: string = join(dirname(findDashboardDir()), 'portal'),
): PortalPage & { load(): Promise<void> } => {
  let assets = new Map<string, DashboardAsset>()
  const serve = (file: DashboardAsset): SandboxResponse => ({
    status: 200,
    headers: {
      ...DASHBOARD_HEADERS,
      'Content-Type': file.contentType,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
    },
    body: file.body.toString('utf8'),
  })
  return {
    async load() {
      assets = await loadDashboardAssets(dir)
    },
    answer(path) {
      if (path === '' || path === '/') {
        const index = assets.get('index.html')
        return index === undefined ? undefined : serve(index)
      }
      if (!path.startsWith('/assets/')) return undefined
      const name = path.slice('/assets/'.length)
      const file = name === 'index.html' ? undefined : assets.get(name)
      return file === undefined ? undefined : serve(file)
    },
  }
}
