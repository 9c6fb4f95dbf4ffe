/**
 * `import 'petstore-sandbox/vitest'` in a setup file (or a test): adds the
 * sandbox's matchers to vitest's `expect` and types them.
 *
 * @example
 * // vitest.config.ts: test: { setupFiles: ['petstore-sandbox/vitest'] }
 * await expect(sandbox).toHaveReceived({ method: 'POST', path: '/v1/pets' }, 1)
 */
import { expect } from 'vitest'
import { type SandboxMatchers, sandboxMatchers } from './matchers.js'

expect.extend(sandboxMatchers)

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Matchers<T = any>; the augmentation must match.
  interface Matchers<T = any> extends SandboxMatchers<void> {}
}

export { type SandboxMatchers, sandboxMatchers }
