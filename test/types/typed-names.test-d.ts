import { HttpResponse, http } from 'msw'
import type { Page } from 'playwright-core'
import { describe, expectTypeOf, it } from 'vitest'
import {
  ApiError,
  type BuiltInScenarioName,
  createFlakyScenario,
  createSandbox,
  defineScenario,
  type Sandbox,
  type ScenarioName,
  type TimelineSetting,
} from '../../src/index.js'
import { setupSandbox } from '../../src/runtimes/node.js'
import { installSandbox } from '../../src/runtimes/playwright.js'
import { createSandboxServer, defineConfig } from '../../src/server/index.js'

// Issue 21, point 3: a typo in a scenario name or a plan fails type checking,
// in every entry; names are inferred from the scenarios you pass.
const maintenance = defineScenario({
  name: 'maintenance',
  description: 'Writes answer 503.',
  respond: ({ operationId }) =>
    operationId === 'createPet' ? new ApiError('service_unavailable', 'Read-only.') : undefined,
})

describe('scenario names', () => {
  it('are the built-in ones without scenarios of your own', () => {
    const sandbox = createSandbox()
    sandbox.scenario.set('rate-limited')
    // @ts-expect-error a typo: the built-in is "rate-limited"
    sandbox.scenario.set('rate-limit')
    expectTypeOf<BuiltInScenarioName>().toEqualTypeOf<
      | 'default'
      | 'empty'
      | 'paginated'
      | 'rate-limited'
      | 'banned'
      | 'unauthorized'
      | 'server-error'
      | 'unavailable'
      | 'slow'
      | 'timeout'
      | 'network-error'
      | 'sunset'
      | 'flaky'
      | 'reset-mid-body'
      | 'truncated-body'
      | 'stall-after-headers'
      | 'slow-body'
      | 'malformed-json'
      | 'proxy-error'
      | 'empty-response'
      | 'commit-then-drop'
      | 'outage'
    >()
  })

  it('add the names of the scenarios you pass, in every entry', () => {
    const sandbox = createSandbox({ scenarios: [maintenance] })
    sandbox.scenario.set('maintenance')
    sandbox.session('w1').scenario.set('maintenance')
    // @ts-expect-error not registered
    sandbox.scenario.set('maintenanc')
    expectTypeOf(sandbox).toEqualTypeOf<Sandbox<'maintenance'>>()
    expectTypeOf<Parameters<typeof sandbox.scenario.set>[0]>().toEqualTypeOf<
      ScenarioName<'maintenance'> | TimelineSetting
    >()

    setupSandbox({ scenarios: [maintenance] }).scenario.set('maintenance')
    // @ts-expect-error setupSandbox infers them too
    setupSandbox({ scenarios: [maintenance] }).scenario.set('maintenanc')
    createSandboxServer({ scenarios: [maintenance] }).sandbox.scenario.set('maintenance')
    // @ts-expect-error createSandboxServer infers them too
    createSandboxServer({ scenarios: [maintenance] }).sandbox.scenario.set('maintenanc')
    const installed = (page: Page) => installSandbox(page, { scenarios: [maintenance] })
    expectTypeOf<Awaited<ReturnType<typeof installed>>['scenario']['set']>()
      .parameter(0)
      .toEqualTypeOf<ScenarioName<'maintenance'> | TimelineSetting>()
  })

  it('check the start scenario against them, without widening', () => {
    createSandbox({ scenarios: [maintenance], scenario: 'maintenance' })
    createSandbox({ scenario: 'empty' })
    // @ts-expect-error the start scenario is not inferred from itself (NoInfer)
    createSandbox({ scenarios: [maintenance], scenario: 'maintenence' })
    // @ts-expect-error no such built-in
    createSandbox({ scenario: 'emtpy' })
  })

  it('keep the literal name of a flaky scenario of your own', () => {
    expectTypeOf(createFlakyScenario({ name: 'very-flaky' }).name).toEqualTypeOf<'very-flaky'>()
    expectTypeOf(createFlakyScenario().name).toEqualTypeOf<'flaky'>()
  })

  it('leave a sandbox with your scenarios usable where a Sandbox is asked for', () => {
    const describePets = (sandbox: Sandbox) => sandbox.db.pets.count
    describePets(createSandbox({ scenarios: [maintenance] }))
  })

  it('type a config file with defineConfig', () => {
    defineConfig({ scenarios: [maintenance], scenario: 'maintenance', port: 0 })
    // @ts-expect-error a typo in the config's start scenario
    defineConfig({ scenarios: [maintenance], scenario: 'maintenence' })
    defineConfig({
      handlers: [
        http.get('*/v1/categories', () => HttpResponse.json([])),
        (request: Request) => (request.url.endsWith('/health') ? Response.json({}) : undefined),
      ],
    })
  })
})

describe('key plans', () => {
  it('are the plan names, in the options, at run time and in a config file', () => {
    createSandbox({ keys: { team: 'pro', big: { plan: 'enterprise', perMinute: 5 } } })
    // @ts-expect-error no plan "gold"
    createSandbox({ keys: { team: 'gold' } })
    createSandbox().keys.create({ plan: 'business' })
    // @ts-expect-error no plan "gold"
    createSandbox().keys.create({ plan: 'gold' })
    // @ts-expect-error no plan "gold"
    defineConfig({ keys: { team: 'gold' } })
  })
})

describe('reset', () => {
  it('takes { sessions: "all" } and nothing else', async () => {
    const sandbox = createSandbox()
    await sandbox.reset()
    await sandbox.reset({ sessions: 'all' })
    // @ts-expect-error only 'all'
    await sandbox.reset({ sessions: 'every' })
  })
})

describe('onUnhandledRequest', () => {
  it('takes the strategies and msw’s callback form', () => {
    setupSandbox({ onUnhandledRequest: 'warn' })
    setupSandbox({
      onUnhandledRequest: (request, print) => {
        expectTypeOf(request).toEqualTypeOf<Request>()
        if (new URL(request.url).hostname !== 'localhost') print.error()
      },
    })
    // @ts-expect-error not a strategy
    setupSandbox({ onUnhandledRequest: 'ignore' })
  })
})
