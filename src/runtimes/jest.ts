/**
 * `import 'petstore-sandbox/jest'` in a setup file (`setupFilesAfterEnv`):
 * adds the sandbox's matchers to Jest's global `expect` and types them for
 * `@types/jest` (with `@jest/globals`, augment `expect`'s `Matchers`: see
 * docs/judging-the-client.md).
 *
 * @example
 * // jest.config.js: setupFilesAfterEnv: ['petstore-sandbox/jest']
 * await expect(sandbox).toHaveReceived({ method: 'POST', path: '/v1/pets' }, 1)
 */
import { type SandboxMatchers, sandboxMatchers } from './matchers.js'

const jestExpect = (globalThis as { expect?: { extend(matchers: object): void } }).expect
if (typeof jestExpect?.extend !== 'function')
  throw new TypeError(
    'Failed to add the sandbox matchers: there is no global expect here. Import petstore-sandbox/jest from a Jest setup file (setupFilesAfterEnv), or call expect.extend(sandboxMatchers) with petstore-sandbox/matchers.',
  )
jestExpect.extend(sandboxMatchers)

declare global {
  namespace jest {
    interface Matchers<R> extends SandboxMatchers<R> {}
  }
}

export { type SandboxMatchers, sandboxMatchers }
