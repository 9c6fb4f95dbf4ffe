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
        find: /^petstore-sandbox$/,
        replacement: new URL('./src/index.ts', import.meta.url).pathname,
      },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
  },
})
