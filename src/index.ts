/**
 * petstore-sandbox: the runtime-free core. Runtimes have their own entries
 * (`petstore-sandbox/node`, …).
 */
export type { ApiKeyInfo, CreateKeyOptions, KeyOption } from './auth/key-registry.js'
export * from './contract/index.js'
export { ApiError, jsonResponse } from './core/api-error.js'
export type { SandboxClock } from './core/clock.js'
export type { HandleOptions } from './core/handle-request.js'
export type { JournalEntry } from './core/journal.js'
export type { SandboxRequest, SandboxResponse, TransportFault } from './core/types.js'
export type { PetPage, PetStore, PetStoreSnapshot } from './db/pet-store.js'
export type { OperationId } from './handlers/operation.js'
export type { RateLimitOptions } from './rate-limit/rate-limit-options.js'
export {
  type CreateSandboxOptions,
  createSandbox,
  type Sandbox,
  type ScenarioInfo,
} from './sandbox/create-sandbox.js'
export { createSandboxCore, type SandboxCore } from './sandbox/create-sandbox-core.js'
export type { SandboxOptions } from './sandbox/sandbox-options.js'
export { createFlakyScenario, type FlakyOptions } from './scenarios/built-in/flaky.js'
export {
  defineScenario,
  type Scenario,
  type ScenarioContext,
  type ScenarioStoreContext,
} from './scenarios/define-scenario.js'
export { MAX_DELAY_MS, readDelayParam } from './scenarios/read-delay-param.js'
export { BUILT_IN_SCENARIOS } from './scenarios/scenario-registry.js'
