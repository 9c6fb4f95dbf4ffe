import { ApiError } from '../http/api-error.js'
import { internalError, payloadTooLarge } from '../http/errors.js'
import type { Forwarder } from '../http/forwarder.js'
import { renameErrorCode } from '../http/rename-error-code.js'
import type { SandboxResponse } from '../http/types.js'
import type { AnswerSource, JournalRecord, Violation } from '../journal/journal.js'
import { keyRef } from '../journal/key-ref.js'
import { redactKnownSecret } from '../journal/redact-secrets.js'
import { toJournalEntry } from '../journal/to-journal-entry.js'
import { admit, peekQuota } from '../pipeline/admit.js'
import { requireKey } from '../pipeline/authenticate.js'
import { finish } from '../pipeline/finish.js'
import type { InFrontInput, PipelineContext } from '../pipeline/pipeline-context.js'
import { route } from '../pipeline/route.js'
import { run } from '../pipeline/run.js'
import { choosePhase, requestedScenario, selectScenario } from '../pipeline/select-scenario.js'
import { runScenario } from '../scenarios/run-scenario.js'
import { type PhaseRef, stickyName } from '../scenarios/timeline.js'
import { STALE_RETRIES, StaleStateError } from '../state/stale-state.js'
import type { AnswerValidator } from '../validation/create-answer-validator.js'
import { upstreamHeaders, upstreamUrl } from './build-upstream-request.js'
import { type Answered, callUpstream } from './call-upstream.js'
import { exactResponse, relink } from './exact-response.js'
import type { Recording } from './recording.js'
import type { ReplayIndex } from './replay-index.js'
import type { SessionModes } from './session-modes.js'
import { contractViolation, replayMiss } from './upstream-errors.js'
import type { ResolvedUpstream } from './upstream-options.js'

/** Upstream mode, loaded: what answering a request in front of the upstream needs. */
export interface Front {
  ctx: PipelineContext
  config: ResolvedUpstream
  modes: SessionModes
  validate: AnswerValidator
  replay: ReplayIndex | undefined
  recording: Recording | undefined
  /** The forwarder when the runtime gives none for a request (`fetch`). */
  forward: Forwarder
}

/** The journaled headers and text of an answer with the upstream key redacted wherever it appears. */
const withoutKey = (answer: SandboxResponse, key: string): SandboxResponse => {
  // fromEntries: a header named `__proto__` stays a header.
  const headers = Object.fromEntries(
    Object.entries(answer.headers).map(([name, value]) => [name, redactKnownSecret(value, key)]),
  )
  const body = answer.body === null ? null : redactKnownSecret(answer.body, key)
  return { ...answer, headers, body }
}

const withoutKeyIn = (violations: Violation[], key: string): Violation[] =>
  violations.map((v) => ({ ...v, message: redactKnownSecret(v.message, key) }))

const NO_VIOLATIONS: Violation[] = []
Object.freeze(NO_VIOLATIONS)
const decoder = new TextDecoder()

/**
 * One request of a session in `upstream` or `replay` mode (contract §17). The
 * stages are the pipeline's: identify, the scenario (unknown names answered
 * 400 here), local quotas only with `localLimits`, the key with an upstream
 * key (else only its form, for what is answered here or from a recording:
 * decision 0036). A scenario that `forwards` (default, slow, flaky) runs its
 * hooks around the real answer; any other answers here, as without an
 * upstream. A real answer is validated, passed on as received (or, in strict
 * mode, replaced with 502 on a `spec.*` violation), journaled with `source`
 * and `violations`, and recorded.
 *
 * @example
 * const { response, record } = await answerInFront(front, input)
 */
export const answerInFront = async (
  front: Front,
  input: InFrontInput,
  attempt = 0,
): Promise<{ response: SandboxResponse; record: JournalRecord }> => {
  const { ctx, config } = front
  const { request, url, path, match, session, now, caller } = input
  const { auth } = caller
  const mode = front.modes.get(session.id)
  const operation = match.kind === 'found' ? match.value : undefined
  let rateLimit: Record<string, string> | null = null
  let scenario = ''
  let phase: PhaseRef | undefined
  let source: AnswerSource = 'sandbox'
  let violations = NO_VIOLATIONS
  let forwarded: { sent: Parameters<typeof callUpstream>[1]; answer: Answered } | undefined
  let response: SandboxResponse

  const check = (
    status: number,
    received: Answered['headers'],
    body: Uint8Array,
    text: string,
    base: string | undefined,
  ) => {
    const pairs = relink(received, base, `${url.origin}${ctx.settings.basePath}`)
    const answer = exactResponse(request.method, status, pairs, body, text)
    violations = front.validate({
      operation: operation?.id ?? null,
      method: request.method,
      url,
      requestBody: request.body,
      status,
      headers: answer.headers,
      body: text,
    })
    // An operation of an OpenAPI document checks its answer against the document (contract §20).
    if (operation?.checkAnswer !== undefined) {
      const more = operation.checkAnswer({ method: request.method, status, body: text })
      if (more.length > 0) violations = [...violations, ...more]
    }
    // A violation may quote the body ("is not JSON: …"): an echoed key is redacted there too.
    if (config.key !== undefined && violations.length > 0)
      violations = withoutKeyIn(violations, config.key)
    if (config.strict && violations.length > 0) {
      const broken = violations.filter((v) => v.rule.startsWith('spec.'))
      if (broken.length > 0) throw contractViolation(status, broken)
    }
    // The journal's view of an answer that echoes the upstream key has it redacted; the
    // client gets the bytes as received (`exact`).
    return config.key === undefined ? answer : withoutKey(answer, config.key)
  }

  const answerHere = async (): Promise<SandboxResponse> => {
    const routed = route(match, request.method, url.pathname, input.notFoundHint)
    const chosen = ctx.scenarios.require('default')
    return routed.operation.run({
      request,
      url,
      params: routed.params,
      store: await session.store(chosen),
      now,
      session: session.id,
      settings: ctx.settings,
    })
  }

  const realAnswer = async (): Promise<SandboxResponse> => {
    if (mode === 'replay') {
      const hit = front.replay?.next(session.id, {
        method: request.method,
        path,
        search: url.search,
        body: request.body,
        keyRef: auth.kind === 'bearer' ? keyRef(auth.token) : undefined,
      })
      if (hit === undefined) {
        if (config.replayFallback === 'sandbox') return answerHere()
        throw replayMiss(request.method, url, front.replay?.answers ?? 0)
      }
      source = 'replay'
      if (hit.failed) return { status: 502, headers: {}, body: null, fault: 'network-error' }
      return check(hit.status, hit.headers, hit.body, hit.text, hit.base)
    }
    source = 'upstream'
    // A body past the sandbox's limit was never read whole: it cannot be forwarded.
    const limit = ctx.settings.fidelity.maxBodyBytes
    if (request.body !== null && request.body.byteLength > limit) throw payloadTooLarge(limit)
    const sent = {
      method: request.method,
      url: upstreamUrl(config.url as string, path, url.search),
      headers: upstreamHeaders(request.headers, config.key),
      body: request.method === 'GET' || request.method === 'HEAD' ? null : request.body,
    }
    const answer = await callUpstream(input.forward ?? front.forward, sent, config)
    forwarded = { sent, answer }
    const text = answer.text ?? decoder.decode(answer.body)
    return check(answer.status, answer.headers, answer.body, text, config.url)
  }

  try {
    let sticky = session.sticky()
    if (sticky instanceof Promise) sticky = await sticky
    // Precedence (contract §19): the flag, the header, the key's scenario, the sticky one.
    const named = requestedScenario(url, request.headers) ?? caller.key?.scenario
    scenario = named ?? stickyName(sticky)
    let chosen =
      named === undefined && typeof sticky !== 'string'
        ? undefined
        : selectScenario(ctx.scenarios, scenario)
    if (chosen === undefined || chosen.timeline !== undefined) {
      const choice = await choosePhase({
        scenarios: ctx.scenarios,
        session,
        named: chosen,
        sticky,
        now,
      })
      chosen = choice.scenario
      phase = choice.phase
      scenario = chosen.name
    }
    if (config.localLimits) {
      const admitted = await admit(session, caller, now)
      rateLimit = admitted.headers
      if (admitted.refusal !== undefined) throw admitted.refusal.error
    }
    if (config.key !== undefined) requireKey(caller)
    // What the sandbox answers itself (a scenario) or from a recording, it answers as it
    // would without an upstream: no Authorization, or not `Bearer <key>`, is its own 401
    // (decision 0036). Only the upstream, when asked, judges a key it alone knows.
    else if (auth.kind !== 'bearer' && (mode === 'replay' || chosen.forwards !== true))
      requireKey(caller)
    if (chosen.forwards !== true) {
      // Answered here, as without an upstream: a forced 429 costs no real quota.
      if (rateLimit === null) rateLimit = await peekQuota(session, caller, now)
      const routed = route(match, request.method, url.pathname, input.notFoundHint)
      response = await run(ctx, {
        request,
        url,
        operation: routed.operation,
        params: routed.params,
        scenario: chosen,
        session,
        now,
        rateLimit,
      })
    } else if (operation === undefined) {
      // A path or method the contract does not define: the upstream may know it.
      response = await realAnswer()
    } else {
      response = await runScenario(
        chosen,
        {
          operationId: operation.id,
          request,
          url,
          clock: { now: () => now },
          settings: ctx.settings,
          rateLimit: rateLimit ?? {},
          random: () => session.random(chosen),
        },
        realAnswer,
      )
    }
  } catch (error) {
    // A shared state's cache was out of date before anything was sent (decision 0014): again.
    if (error instanceof StaleStateError && forwarded === undefined && attempt < STALE_RETRIES)
      return answerInFront(front, input, attempt + 1)
    if (!(error instanceof ApiError)) ctx.onError(error)
    response = (error instanceof ApiError ? error : internalError()).toResponse()
  }
  const exact = response.exact !== undefined
  // The `errorCodes` setting renames the sandbox's own codes, never the upstream's.
  if (!exact && ctx.settings.renamesErrorCodes)
    response = renameErrorCode(response, ctx.settings.fidelity.errorCodes)
  // The sandbox's own answers carry its headers; a real answer only its own.
  if (!exact && rateLimit === null) rateLimit = await peekQuota(session, caller, now)
  const done = await finish(ctx, {
    request,
    url,
    response,
    session,
    now,
    operation: operation?.id ?? null,
    operationHeaders: exact
      ? null
      : (operation?.headers?.({ url, settings: ctx.settings }) ?? null),
    rateLimitHeaders: exact ? null : rateLimit,
    token: auth.kind === 'bearer' ? auth.token : undefined,
    keyValid: caller.key !== undefined,
    scenario: scenario === '' ? stickyName(await session.sticky()) : scenario,
    phase,
    plan: caller.key?.plan,
    startedAt: input.startedAt,
    source,
    violations,
  })
  if (forwarded !== undefined && front.recording !== undefined) {
    // Written before the answer goes: a slow disk slows the traffic, entries never pile up.
    const written = front.recording.add({ entry: toJournalEntry(done.record), ...forwarded })
    if (written !== undefined) await written
  }
  return done
}
