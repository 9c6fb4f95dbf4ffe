import { describe, expectTypeOf, it } from 'vitest'
import { createSandbox, defineScenario, type KeyOption } from '../../src/index.js'
import { setupSandbox } from '../../src/runtimes/node.js'
import { createSandboxServer, defineConfig } from '../../src/server/index.js'

// Issue 37 item 12: a key's scenario is a name the sandbox knows, as the `scenario` option
// is (decision 0057): `slwo` fails type checking instead of failing at start.
const maintenance = defineScenario({ name: 'maintenance', description: 'Writes answer 503.' })

describe("a key's scenario", () => {
  it('is a built-in name, or one of the scenarios passed', () => {
    createSandbox({ keys: { k: { plan: 'free', scenario: 'slow' } } })
    // @ts-expect-error a typo of "slow"
    createSandbox({ keys: { k: { plan: 'free', scenario: 'slwo' } } })
    createSandbox({
      scenarios: [maintenance],
      keys: { k: { plan: 'pro', scenario: 'maintenance' }, team: 'pro' },
    })
    // @ts-expect-error not registered in this sandbox
    createSandbox({ keys: { k: { plan: 'pro', scenario: 'maintenance' } } })
    setupSandbox({
      scenarios: [maintenance],
      keys: { k: { plan: 'free', scenario: 'maintenance' } },
    })
    // @ts-expect-error setupSandbox checks it too
    setupSandbox({ keys: { k: { plan: 'free', scenario: 'maintenanc' } } })
    createSandboxServer({ keys: { k: { plan: 'free', scenario: 'unavailable' } } })
    // @ts-expect-error and the server
    createSandboxServer({ keys: { k: { plan: 'free', scenario: 'unavailble' } } })
  })

  it('is checked in a config file too', () => {
    defineConfig({ keys: { k: { plan: 'free', scenario: 'outage' } } })
    defineConfig({
      scenarios: [maintenance],
      keys: { k: { plan: 'free', scenario: 'maintenance' } },
    })
    // @ts-expect-error a typo in defineConfig
    defineConfig({ keys: { k: { plan: 'free', scenario: 'slwo' } } })
  })

  it('stays any text in KeyOption without a parameter (the control API, the CLI)', () => {
    expectTypeOf<Extract<KeyOption, object>['scenario']>().toEqualTypeOf<string | undefined>()
  })
})
