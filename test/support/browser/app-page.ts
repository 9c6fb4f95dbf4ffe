import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'

/** Where the tests keep their screenshots (gitignored; CI keeps them as artifacts). */
export const SCREENSHOT_DIR = fileURLToPath(
  new URL('../../../test-results/screenshots/', import.meta.url),
)

/** Saves a full-page screenshot as `test-results/screenshots/<name>.png`. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true })
}

/** Waits until the element's text contains `text`, then returns the whole text. */
export const waitForText = async (page: Page, selector: string, text: string): Promise<string> => {
  await page
    .waitForFunction(
      ([sel, expected]) => document.querySelector(sel)?.textContent?.includes(expected) === true,
      [selector, text] as const,
      { timeout: 5_000 },
    )
    .catch(() => {
      // The assertion that follows reports what the page shows instead.
    })
  return (await page.textContent(selector)) ?? ''
}

/** The ids in the pet table's first column. */
export const listedIds = async (page: Page): Promise<number[]> =>
  page.$$eval('#pets tr', (rows) =>
    rows.map((row) => Number(row.querySelector('td')?.textContent)).filter(Number.isInteger),
  )

/** The error box as `<status> <code>`, or '' while it is hidden. */
export const shownError = async (page: Page): Promise<string> =>
  page.$eval('#error', (box) =>
    (box as HTMLElement).hidden ? '' : (box.querySelector('strong')?.textContent ?? ''),
  )

/** Waits for the page's first load (the app marks `<body data-ready>`). */
export const openApp = async (page: Page, url: string): Promise<void> => {
  await page.goto(url)
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 15_000 })
}
