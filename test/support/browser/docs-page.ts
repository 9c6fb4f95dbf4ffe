import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'

const run = promisify(execFile)

/** Where the API reference tests keep their screenshots (gitignored). */
export const DOCS_SHOTS = fileURLToPath(new URL('../../../test-results/docs/', import.meta.url))

/** Builds the page into dist/docs, as `npm run build` does, so the test never serves a stale bundle. */
export const bundleDocs = async (): Promise<void> => {
  const script = fileURLToPath(new URL('../../../scripts/bundle-docs.mjs', import.meta.url))
  await run(process.execPath, [script], { timeout: 120_000 })
}

/** Saves a screenshot as `test-results/docs/<name>.png`. */
export const shootDocs = async (page: Page, name: string, fullPage = false): Promise<string> => {
  await mkdir(DOCS_SHOTS, { recursive: true })
  const path = `${DOCS_SHOTS}${name}.png`
  await page.screenshot({ path, fullPage })
  return path
}

/**
 * Records every request the page makes, and every one that would leave
 * `origin` (those are aborted, so nothing reaches another host either way).
 */
export const recordRequests = async (
  page: Page,
  origin: string,
): Promise<{ all: string[]; foreign: string[] }> => {
  const seen = { all: [] as string[], foreign: [] as string[] }
  await page.context().route('**/*', (route) => {
    const url = route.request().url()
    seen.all.push(url)
    if (new URL(url).origin === origin) return route.continue()
    seen.foreign.push(url)
    return route.abort()
  })
  page.on('request', (request) => {
    const url = request.url()
    if (!url.startsWith('data:') && new URL(url).origin !== origin && !seen.foreign.includes(url))
      seen.foreign.push(url)
  })
  return seen
}
