import { type Browser, chromium } from 'playwright-core'

/** Debian's Chromium unless `PETSTORE_SANDBOX_CHROMIUM` names another binary. */
export const CHROMIUM_PATH = process.env.PETSTORE_SANDBOX_CHROMIUM ?? '/usr/bin/chromium'

// Without the background-networking flags Chromium keeps dialling Google's
// hosts, which this machine's closed network refuses.
const ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Launches headless Chromium with a fresh temporary profile.
 *
 * @example
 * const browser = await launchChromium()
 * afterAll(() => browser.close())
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, headless: true })
