import { defineConfig } from '@playwright/test'

// The Playwright example of docs/your-endpoints.md, run by your-endpoints-playwright.test.ts with
// Debian's Chromium (Playwright downloads no browser here).
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Beside this file: Playwright empties its output folder, which would otherwise be the
  // project's test-results/, where the other browser tests keep their screenshots.
  outputDir: 'test-results',
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? 'dot' : 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.PETSTORE_SANDBOX_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
})
