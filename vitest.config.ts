import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // Examples import the package by its name, as a user would.
    alias: [
      {
        find: /^petstore-sandbox\/node$/,
        replacement: new URL('./src/runtimes/node.ts', import.meta.url).pathname,
      },
      {
        find: /^petstore-sandbox\/playwright$/,
        replacement: new URL('./src/runtimes/playwright.ts', import.meta.url).pathname,
      },
      {
        find: /^petstore-sandbox\/server$/,
        replacement: new URL('./src/server/index.ts', import.meta.url).pathname,
      },
      {
        find: /^petstore-sandbox\/(matchers|vitest|jest)$/,
        replacement: new URL('./src/runtimes/$1.ts', import.meta.url).pathname,
      },
      {
        find: /^petstore-sandbox$/,
        replacement: new URL('./src/index.ts', import.meta.url).pathname,
      },
    ],
  },
  test: {
    // Builds dist/ when stale: the CLI bundle and module-load tests run the built package.
    globalSetup: ['./test/support/global-setup.ts'],
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Type tests (issue 21): tsc checks test/types/*.test-d.ts, each @ts-expect-error included.
    typecheck: {
      enabled: true,
      include: ['test/types/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
      // The project's TypeScript (5.9), by path: `tsc` on the PATH is TypeScript 7 from the
      // `typescript-latest` alias, which only the packed-package check uses (issue 31, item 8).
      checker: new URL('./node_modules/typescript/bin/tsc', import.meta.url).pathname,
    },
    // Generous on purpose (issue 31, item 5): many tests start a CLI, a Redis server or
    // Chromium, which takes seconds on a quiet machine and ten times that on a loaded one. On a
    // 2-core machine at a load average of 25, 22 tests of the suite went past the old 20 s.
    // A test that hangs still fails; it only takes longer to.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: {
      // The Pact verifier (pact-core) would otherwise try to send usage statistics: no test
      // sends anything off this machine.
      PACT_DO_NOT_TRACK: 'true',
    },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
})
