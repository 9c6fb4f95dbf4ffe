/**
 * The public API that loads no msw: what every entry exports. The root entry
 * adds `createSandbox` (with MSW handlers); `petstore-sandbox/server` and
 * `petstore-sandbox/playwright` export only this, so they never load msw.
 */
export type { ApiKeyInfo, CreateKeyOptions, KeyOption } from './auth/key-registry.js'
export type { SandboxClock } from './clock/clock.js'
export * from './contract/index.js'
export type { ContractOperationId } from './contract/operation-ids.js'
export type { PetPage, PetRecords } from './db/pet-records.js'
export type { PetStore, PetStoreSnapshot } from './db/pet-store.js'
export type { OwnHandler } from './handlers/check-own-handlers.js'
export {
  type MarkedHandler,
  type OwnHandlerAccess,
  type OwnHandlerFunction,
  type OwnHandlerOptions,
  ownHandler,
  passthroughHandler,
  publicHandler,
} from './handlers/own-handler-marks.js'
export { ApiError } from './http/api-error.js'
export { jsonResponse } from './http/json-response.js'
export type { SandboxRequest, SandboxResponse, TransportFault } from './http/types.js'
export type { JournalEntry, JournalMessage } from './journal/journal.js'
export { type Har, type HarEntry, type ToHarOptions, toHAR } from './journal/to-har.js'
export type { Difference } from './judge/compare-entry.js'
export type {
  ExpectationFailure,
  ExpectationMiss,
  ExpectationRequest,
} from './judge/describe-expectation.js'
export type { ClientReport, Finding, FindingLevel, RuleId } from './judge/finding.js'
export type {
  CoverageFault,
  CoverageReport,
  NotableHeader,
  OperationCoverage,
} from './judge/measure-coverage.js'
export type { ExpectOptions, MatchValue, RequestMatch } from './judge/request-match.js'
export type {
  Operation,
  OperationContext,
  OperationId,
  OperationMethod,
} from './operations/operation.js'
export type {
  Pact,
  PactBody,
  PactExport,
  PactInteraction,
  PactOptions,
  PactProblem,
  PactProviderState,
} from './pact/pact-document.js'
export type { RateLimitOptions } from './rate-limit/rate-limit-options.js'
export {
  type Answer,
  createSandboxCore,
  type HandleInput,
  type HandleOptions,
  type ResetOptions,
  type SandboxAdditions,
  type SandboxCore,
  type ScenarioInfo,
  type SessionControls,
  type SessionInfo,
} from './sandbox/create-sandbox-core.js'
export type { TimelineSetting, TimelineStatus } from './sandbox/resolve-sticky.js'
export type { SandboxOptions } from './sandbox/sandbox-options.js'
export { createFlakyScenario, type FlakyOptions } from './scenarios/built-in/flaky.js'
export type { BuiltInScenarioName, ScenarioName } from './scenarios/built-in-scenarios.js'
export {
  defineScenario,
  type Scenario,
  type ScenarioContext,
  type ScenarioStoreContext,
} from './scenarios/define-scenario.js'
export { MAX_DELAY_MS, readDelayParam } from './scenarios/read-delay-param.js'
export { BUILT_IN_SCENARIOS } from './scenarios/scenario-registry.js'
export type { PhaseAt, Timeline, TimelinePhase } from './scenarios/timeline.js'
export type { SandboxEvents } from './state/sandbox-events.js'
