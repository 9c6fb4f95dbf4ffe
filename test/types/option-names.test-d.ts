import { describe, expectTypeOf, it } from 'vitest'
import type {
  CREATE_SANDBOX_OPTION_NAMES,
  CreateSandboxOptions,
} from '../../src/handlers/create-sandbox.js'
import type { BROWSER_OPTION_NAMES, BrowserSandboxOptions } from '../../src/runtimes/browser.js'
import type { NODE_OPTION_NAMES, NodeSandboxOptions } from '../../src/runtimes/node.js'
import type {
  PLAYWRIGHT_OPTION_NAMES,
  PlaywrightSandboxOptions,
} from '../../src/runtimes/playwright.js'
import type { SANDBOX_OPTION_NAMES, SandboxOptions } from '../../src/sandbox/sandbox-options.js'
import type { SandboxServerOptions, SERVER_OPTION_NAMES } from '../../src/server/server-options.js'

// Issue 21, point 7: each entry's "Known options" list is every option of
// that entry's type, but the internal `limiter`: a new option cannot be left out.
type Listed<T extends readonly string[]> = T[number] | 'limiter'

describe('the known options of each entry', () => {
  it('are exactly the options of its type', () => {
    expectTypeOf<keyof SandboxOptions>().toEqualTypeOf<Listed<typeof SANDBOX_OPTION_NAMES>>()
    expectTypeOf<keyof CreateSandboxOptions>().toEqualTypeOf<
      Listed<typeof CREATE_SANDBOX_OPTION_NAMES>
    >()
    expectTypeOf<keyof NodeSandboxOptions>().toEqualTypeOf<Listed<typeof NODE_OPTION_NAMES>>()
    expectTypeOf<keyof BrowserSandboxOptions>().toEqualTypeOf<Listed<typeof BROWSER_OPTION_NAMES>>()
    expectTypeOf<keyof PlaywrightSandboxOptions>().toEqualTypeOf<
      Listed<typeof PLAYWRIGHT_OPTION_NAMES>
    >()
    expectTypeOf<keyof SandboxServerOptions>().toEqualTypeOf<Listed<typeof SERVER_OPTION_NAMES>>()
  })
})
