import { execFile } from 'node:child_process'
import { mkdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'

const run = promisify(execFile)

/** Where the dashboard tests keep their screenshots (gitignored). */
export const DASHBOARD_SHOTS = fileURLToPath(
  new URL('../../../test-results/dashboard/', import.meta.url),
)

/** Saves a screenshot of the page (or of one element) as `test-results/dashboard/<name>.png`. */
export const shoot = async (
  page: Page,
  name: string,
  options: { selector?: string; fullPage?: boolean } = {},
): Promise<void> => {
  await mkdir(DASHBOARD_SHOTS, { recursive: true })
  const path = `${DASHBOARD_SHOTS}${name}.png`
  if (options.selector !== undefined) await page.locator(options.selector).screenshot({ path })
  else await page.screenshot({ path, fullPage: options.fullPage ?? true })
}

/** Builds the page into dist/dashboard, as `npm run build` does, so the test never serves a stale bundle. */
export const bundleDashboard = async (): Promise<void> => {
  const script = fileURLToPath(new URL('../../../scripts/bundle-dashboard.mjs', import.meta.url))
  await run(process.execPath, [script], { timeout: 60_000 })
}

/** A request sent with curl, as a user's terminal would: resolves status and body. */
export const curl = async (
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> => {
  const args = ['-s', '-w', '\n%{http_code}', '--max-time', '10']
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  const { stdout } = await run('curl', [...args, url], { timeout: 15_000 })
  const cut = stdout.lastIndexOf('\n')
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) }
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[]
}

let axeSource: string | undefined

/**
 * Runs axe-core in the page and returns the serious and critical violations.
 * The source goes in through the DevTools protocol (page.evaluate), which the
 * page's CSP does not govern, so the page keeps its strict policy.
 */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  axeSource ??= await readFile(
    fileURLToPath(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url)),
    'utf8',
  )
  await page.evaluate(axeSource)
  const result = (await page.evaluate('axe.run(document)')) as AxeResult
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`,
    )
}
