import type { ApiKeyInfo } from '../auth/key-registry.js'
import type { Awaitable } from '../http/awaitable.js'
import type { Forwarder } from '../http/forwarder.js'
import type { RouterResult } from '../http/router.js'
import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import type { JournalRecord } from '../journal/journal.js'
import type { Operation, SandboxSettings } from '../operations/operation.js'
import type { RouteTable } from '../operations/route-table.js'
import type { ScenarioRegistry } from '../scenarios/scenario-registry.js'
import type { SandboxState, SessionState } from '../state/sandbox-state.js'
import type { Caller } from './authenticate.js'

/** What the pipeline needs of a sandbox: its settings, its scenarios and its state. */
export interface PipelineContext {
  settings: SandboxSettings
  /** The sandbox's operations and router: the contract's, plus any added at its creation (decision 0042). */
  routes: RouteTable
  /**
   * Resolves once operations added at start are in `routes` (an OpenAPI
   * document being loaded, contract §20); undefined then, and always without
   * one: a request pays one branch for it. Never rejects.
   */
  opening?: Promise<void> | undefined
  /** Restricts the sandbox to one origin (from a full `baseUrl`); undefined matches any origin. */
  origin: string | undefined
  scenarios: ScenarioRegistry
  state: SandboxState
  /** The instance that answers, when several share a store (journal entries name it). */
  instance?: string | undefined
  /** Reports a programming error (the client gets 500 internal_error). */
  onError: (error: unknown) => void
  /**
   * Upstream mode (contract §17, src/upstream), when the sandbox has an
   * upstream or a recording; undefined otherwise, and then a request pays one
   * branch for it.
   */
  upstream?: UpstreamHook | undefined
  /**
   * Accounts (contract §22, decision 0061): the account keys, asked before the
   * sessions' keys; undefined without accounts, and then a request pays one
   * branch for it.
   */
  accountKeys?: AccountKeyHook | undefined
}

/** What the pipeline asks of the accounts. */
export interface AccountKeyHook {
  /**
   * The account key a bearer token is (`session`: its account's sandbox), or
   * undefined when it is none (then the sessions' keys are asked).
   */
  findKey(token: string): Awaitable<ApiKeyInfo | undefined>
  /** Whether a session id is an account's sandbox: reached only with that account's keys. */
  isAccountSession(id: string): boolean
}

/** What the pipeline asks of upstream mode. */
export interface UpstreamHook {
  /** True when the session's requests go to the upstream or a recording (its mode is not `sandbox`). */
  inFront(session: string): boolean
  /** Answers a request of such a session, journal record included. */
  answer(input: InFrontInput): Promise<{ response: SandboxResponse; record: JournalRecord }>
}

/** A request for upstream mode, as far as the pipeline has taken it. */
export interface InFrontInput {
  request: SandboxRequest
  url: URL
  /** The path below the base path. */
  path: string
  match: RouterResult<Operation>
  session: SessionState
  now: number
  /** The caller, identified by the pipeline (its key as this session sees it). */
  caller: Caller
  /** `performance.now()` when the request arrived. */
  startedAt: number
  /** The runtime's forwarder for this request (undefined: the sandbox's default, `fetch`). */
  forward: Forwarder | undefined
  /** Appended to the 404 of the bare base path. */
  notFoundHint: string
}
