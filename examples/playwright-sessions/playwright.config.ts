import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'

// One standalone sandbox for every worker: each test gets its own session
// (session-fixture.ts), so the workers never see each other's data.
// The port comes from PETSTORE_SANDBOX_PORT (the project's test picks a free
// one); by hand: `npx playwright test -c examples/playwright-sessions`.
const PORT = Number(process.env.PETSTORE_SANDBOX_PORT ?? 4319)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Beside this file: Playwright empties its output folder, which would otherwise be the
  // project's test-results/, where the other browser tests keep their screenshots.
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 4,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? 'dot' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser for this suite.
      executablePath: process.env.PETSTORE_SANDBOX_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The project's CLI as built into dist/ (`npm run build`); in your project:
    // `npx petstore-sandbox --port 4319 --quiet`.
    command: `node dist/cli/petstore-sandbox.js --port ${PORT} --quiet`,
    cwd: ROOT,
    url: `http://127.0.0.1:${PORT}/__sandbox/sessions`,
    // Never reuse whatever else listens there: this run owns its server.
    reuseExistingServer: false,
    timeout: 20_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
