import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { createSandbox, createSandboxCore } from '../../src/index.js'
import { createRateLimiter } from '../../src/rate-limit/rate-limiter.js'
import { setupSandbox } from '../../src/runtimes/node.js'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { createSandboxServer } from '../../src/server/index.js'

// Issue 21, point 7: an unknown option names the options of the entry it was
// given to (the server's dataFile, handlers and cors; setupSandbox's
// onUnhandledRequest), never the internal `limiter`.
const knownOf = (run: () => unknown): string[] => {
  try {
    run()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return /Known options: (.*)\.$/.exec(message)?.[1]?.split(', ') ?? [message]
  }
  throw new Error('expected a throw')
}
const typo = { seeds: 1 } as never

describe('"Known options" of each entry', () => {
  it('createSandboxServer lists its own: dataFile, handlers, cors…, not limiter', () => {
    const known = knownOf(() => createSandboxServer(typo))
    expect(known).toEqual(expect.arrayContaining(['seed', 'dataFile', 'handlers', 'cors']))
    expect(known).toEqual(expect.arrayContaining(['adminToken', 'allowedHosts', 'timeouts']))
    expect(known).not.toContain('limiter')
    expect(() => createSandboxServer(typo)).toThrow(
      /^Failed to create the server: unknown option "seeds"\. Known options: /,
    )
  })

  it('setupSandbox lists onUnhandledRequest and handlers; createSandbox handlers; the core neither', () => {
    expect(knownOf(() => setupSandbox(typo))).toEqual(
      expect.arrayContaining(['handlers', 'onUnhandledRequest']),
    )
    expect(knownOf(() => createSandbox(typo))).toContain('handlers')
    expect(knownOf(() => createSandbox(typo))).not.toContain('onUnhandledRequest')
    const core = knownOf(() => createSandboxCore(typo))
    expect(core).not.toContain('handlers')
    expect(core).not.toContain('limiter')
  })

  it('installSandbox lists handlers before it touches the page', async () => {
    const page = {} as Page
    await expect(installSandbox(page, typo)).rejects.toThrow(
      /^Failed to install the sandbox: unknown option "seeds"\. Known options: .*handlers/,
    )
  })

  it('still takes the internal limiter without listing it', () => {
    const limiter = createRateLimiter()
    expect(() => createSandboxServer({ limiter } as never)).not.toThrow()
  })
})
