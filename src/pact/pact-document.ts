/**
 * The Pact file the sandbox writes: specification v4, `Synchronous/HTTP`
 * interactions only (https://github.com/pact-foundation/pact-specification/tree/version-4).
 * Only the fields the sandbox fills are typed.
 */

/**
 * A body in a v4 pact: JSON as JSON, anything else as text; a request body
 * whose media type says JSON that it is not, as its bytes in base64.
 */
export interface PactBody {
  content: unknown
  contentType: string
  encoded: false | 'base64'
}

/** A provider state: the sandbox's scenario, and the plan of the key the client used. */
export interface PactProviderState {
  /** `scenario <name>`, e.g. `scenario unavailable` or `scenario default`. */
  name: string
  params: { scenario: string; plan?: string }
}

/** A v4 generator: the verifier fills the value from what the state handler returned. */
export interface PactProviderStateGenerator {
  type: 'ProviderState'
  expression: string
  dataType: 'STRING'
}

export interface PactRequest {
  method: string
  path: string
  query?: Record<string, string[]>
  headers?: Record<string, string[]>
  body?: PactBody
  generators?: { header: Record<string, PactProviderStateGenerator> }
}

/** A v4 matching rule: the value must match `regex` (a header bound to the origin, an id or the store's state). */
export interface PactRegexRule {
  combine: 'AND'
  matchers: { match: 'regex'; regex: string }[]
}

export interface PactResponse {
  status: number
  headers?: Record<string, string[]>
  body?: PactBody
  /**
   * Headers a provider answers differently from a fresh state or at another
   * address: `X-Total-Count` matches any whole number, `Link` and `Location` any
   * origin, a `Location` ending in the created resource's id any id.
   */
  matchingRules?: { header: Record<string, PactRegexRule> }
}

export interface PactInteraction {
  type: 'Synchronous/HTTP'
  /** `<operation>: <status>[ <code>]`, e.g. `listPets: 200`, `getPet: 404 pet_not_found`. */
  description: string
  providerStates: PactProviderState[]
  request: PactRequest
  response: PactResponse
  pending: false
}

/** A Pact file, specification 4.0. */
export interface Pact {
  consumer: { name: string }
  provider: { name: string }
  interactions: PactInteraction[]
  metadata: {
    pactSpecification: { version: '4.0' }
    'petstore-sandbox': { version: string }
  }
}

/** An exchange of the journal that is not in the pact, and why (never left out silently). */
export interface PactProblem {
  /** The interaction's description (`createPet: 201`), or `METHOD path` when it has none. */
  interaction: string
  /** The journal `seq`s of the requests behind it. */
  seqs: number[]
  /** Each reason, e.g. `response body: 0.nickname is not declared by the OpenAPI document`. */
  problems: string[]
}

/** What `sandbox.pact()`, `GET /__sandbox/pact` and `petstore-sandbox pact` give. */
export interface PactExport {
  pact: Pact
  /** Exchanges left out of the pact because the OpenAPI pre-check (or the journal) refused them. */
  problems: PactProblem[]
  /** Journal entries with no HTTP answer (faults), which are never interactions. */
  skipped: { seq: number; reason: string }[]
}

/** The names of both sides of the contract. */
export interface PactOptions {
  consumer: string
  provider: string
}
