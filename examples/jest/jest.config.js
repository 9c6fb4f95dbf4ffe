/** @type {import('jest').Config} */
export default {
  // jsdom, with what MSW needs: Node's fetch, streams and TextEncoder, and Node's
  // export conditions instead of "browser" (so petstore-sandbox/node and msw/node load).
  testEnvironment: 'jest-fixed-jsdom',
  testEnvironmentOptions: { customExportConditions: [''] },
  // petstore-sandbox and msw are ES modules: Jest loads them natively
  // (node --experimental-vm-modules), so nothing is transformed.
  transform: {},
  // expect(sandbox).toHaveReceived(match, times?): the sandbox's request matcher.
  setupFilesAfterEnv: ['petstore-sandbox/jest'],
  testMatch: ['**/*.test.js'],
}
