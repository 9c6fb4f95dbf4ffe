import type { SandboxSettings } from '../operations/operation.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { SandboxState } from '../state/sandbox-state.js'

/** What the pipeline needs of a sandbox: its settings, its scenarios and its state. */
export interface PipelineContext {
  settings: SandboxSettings
  /** Restricts the sandbox to one origin (from a full `baseUrl`); undefined matches any origin. */
  origin: string | undefined
  scenarios: ScenarioRegistry
  state: SandboxState
  /** The instance that answers, when several share a store (journal entries name it). */
  instance?: string | undefined
  /** Reports a programming error (the client gets 500 internal_error). */
  onError: (error: unknown) => void
}
