import type { FidelitySettings } from '../contract/fidelity.js'
import type { Violation } from '../validation/answer-rules.js'

/** One request of `verify`, below the target's base URL (`/pets?limit=1`). */
export interface VerifyRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string | undefined
}

/** The target's answer: lower-case header names, the body as text. */
export interface VerifyResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Why a request got no answer. */
export type FailureKind = 'network' | 'tls' | 'timeout'

/**
 * A request that got no answer (connection refused or reset, DNS, TLS, a
 * timeout). A transport throws it; `verify` reports it as a failed check.
 */
export class TransportFailure extends Error {
  override name = 'TransportFailure'
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message)
  }
}

/** How `verify` reaches a target: over HTTP in Node, or straight into a sandbox in tests. */
export type VerifyTransport = (request: VerifyRequest) => Promise<VerifyResponse>

/** One check of the report. `id` is stable across versions (docs/verify.md lists them). */
export interface VerifyCheck {
  id: string
  kind: 'spec' | 'gap'
  /** spec: the deployment keeps the rule; gap: it answers as the sandbox's setting does. */
  pass: boolean
  /** What the target did (for a gap: the value `--emit-config` writes, when it can). */
  observed: unknown
  /** What the spec asks (spec), or the sandbox's current setting (gap). */
  expected: unknown
  message: string
}

/** A check that did not run, and why (no `--allow-writes`, stopped early, nothing to check). */
export interface SkippedCheck {
  id: string
  kind: 'spec' | 'gap'
  reason: string
}

/** Why a run ended before its last check. */
export interface VerifyStop {
  reason: 'rate-limited' | 'no-answer' | 'budget' | 'quota'
  message: string
}

/** What `verify` found. Secrets are redacted in its text (docs/verify.md, "Safe by default"). */
export interface VerifyReport {
  /** The base URL checked (credentials and secret query parameters redacted). */
  target: string
  startedAt: string
  finishedAt: string
  /** Requests sent, and the budget. */
  requests: number
  maxRequests: number
  allowWrites: boolean
  /** The pets this run created (at most 5, only with `allowWrites`), to clean up. */
  createdPets: { id: number; name: string }[]
  /** The key's plan as the target states it (`X-RateLimit-*` of its first answer). */
  rateLimit: { limit: number; remaining: number; reset: number } | null
  /** Set when the run ended early: a 429, no answer, the request budget, the quota. */
  stopped: VerifyStop | null
  /** True when every spec check passed and the run was not stopped early. */
  passed: boolean
  summary: {
    spec: { passed: number; failed: number; skipped: number }
    gap: { same: number; different: number; skipped: number }
  }
  checks: VerifyCheck[]
  skipped: SkippedCheck[]
  /** The config that makes the sandbox answer like the target on every gap observed. */
  config: Partial<FidelitySettings>
}

/**
 * An operation an OpenAPI document adds (contract §20), as `verify` probes it:
 * the server's `verify({ openapi })` compiles the document into these.
 */
export interface DocumentOperation {
  /** The document's operationId, else `METHOD /path/template`. */
  id: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Below the base path, e.g. `/categories/{categoryId}`. */
  path: string
  parameters: readonly {
    name: string
    in: 'path' | 'query' | 'header'
    required: boolean
    schema: Readonly<Record<string, unknown>>
  }[]
  /** The JSON request body's schema, if it takes one. */
  body: { required: boolean; schema: Readonly<Record<string, unknown>> } | undefined
  /** `list`, `fetch`… for a collection (`/things`, `/things/{id}`); `static` otherwise. */
  role: 'list' | 'create' | 'fetch' | 'replace' | 'update' | 'delete' | 'static'
  /** The collection's path and its records' id property, for a collection's operation. */
  collection: { path: string; idField: string } | undefined
  /** Checks one answer of it against the document (`spec.document.*`). */
  check(answer: { method: string; status: number; body: string | null }): Violation[]
}
