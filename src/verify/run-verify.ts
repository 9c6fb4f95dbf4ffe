import { FIDELITY_DEFAULTS, type FidelitySettings } from '../contract/fidelity.js'
import { ANSWER_RULES, type AnswerRule } from '../validation/answer-rules.js'
import { runAuthChecks } from './auth-checks.js'
import { countOf } from './count-of.js'
import { runDocumentChecks } from './document-checks.js'
import { observeErrorCodes, toGapChecks } from './gap-checks.js'
import { runGetChecks } from './get-checks.js'
import { findMaxBodyBytes, findNameMaxLength } from './limit-search.js'
import { runListChecks } from './list-checks.js'
import { createProbeRunner, DEFAULT_MAX_WAIT_MS } from './probe-runner.js'
import { redactReport, redactTarget } from './redact-report.js'
import { VERIFY_CHECKS } from './verify-checks.js'
import type { VerifyContext } from './verify-context.js'
import type {
  DocumentOperation,
  SkippedCheck,
  VerifyCheck,
  VerifyReport,
  VerifyTransport,
} from './verify-types.js'
import { runWriteChecks } from './write-checks.js'

export interface RunVerifyOptions {
  transport: VerifyTransport
  /** The target's base URL, ending with /v1 (for messages and the validator). */
  baseUrl: string
  /** The API key to verify with. It is redacted in the report. */
  key: string
  /** Send POSTs: create at most 5 recognisable pets (default false: read-only). */
  allowWrites?: boolean
  /** The most requests to send (default 150). */
  maxRequests?: number
  /** The sandbox's fidelity settings to compare the target with (default: the defaults). */
  sandbox?: FidelitySettings
  /** Wall clock, for pet names and rate-limit waits (default Date.now). */
  now?: () => number
  /** How to wait for a rate-limit window (default setTimeout). */
  sleep?: (ms: number) => Promise<void>
  /** The most to wait for quota windows, in all, in ms (default 65,000). */
  maxWaitMs?: number
  /** The operations of an OpenAPI document the target adds (contract §20): probed and checked against it. */
  document?: readonly DocumentOperation[] | undefined
}

const ruleCheck = (ctx: VerifyContext, id: AnswerRule): VerifyCheck | undefined => {
  const tally = ctx.runner.tallies.get(id)
  if (tally === undefined || tally.applied === 0) return undefined
  return {
    id,
    kind: 'spec',
    pass: tally.broken === 0,
    observed:
      tally.broken === 0
        ? `${countOf(tally.applied, 'answer')}, none broke it`
        : `${tally.broken} of ${countOf(tally.applied, 'answer')} broke it`,
    expected: ANSWER_RULES[id],
    message: tally.first ?? 'Every answer it applies to keeps it.',
  }
}

const skipReason = (ctx: VerifyContext, id: string, keyRefused: boolean): string => {
  const info = Object.hasOwn(VERIFY_CHECKS, id) ? VERIFY_CHECKS[id] : undefined
  const gap = ctx.gaps.get(id.slice('gap.'.length) as keyof FidelitySettings)
  if (gap !== undefined) return gap.message
  if (info?.writes === true && !ctx.allowWrites)
    return id.startsWith('spec.document.')
      ? "Needs --allow-writes (it sends invalid bodies to the document's write operations)."
      : 'Needs --allow-writes (it sends POST /pets).'
  if (ctx.runner.state.stopped !== undefined) return `Not run: ${ctx.runner.state.stopped.message}`
  if (keyRefused) return 'Not run: the key was refused.'
  if (info?.writes === true && ctx.writesStopped !== undefined) return ctx.writesStopped
  if (id === 'spec.rate-limit.retry-after')
    return 'No 429 was seen: verify never provokes one (it stops at the first).'
  if (id === 'spec.errors.allow')
    return 'No 405 was seen: verify sends no method the spec does not define.'
  return Object.hasOwn(ANSWER_RULES, id)
    ? 'No answer this rule applies to was seen.'
    : 'Not observed.'
}

/** The probe runner's check of the document's operations, by operation id. */
const checkerOf = (document: readonly DocumentOperation[] | undefined) => {
  if (document === undefined) return undefined
  const byId = new Map(document.map((op) => [op.id, op]))
  return (
    probe: { operation: string | null; method: string },
    answer: { status: number; body: string },
  ) => {
    const op = probe.operation === null ? undefined : byId.get(probe.operation)
    return op?.check({ method: probe.method, status: answer.status, body: answer.body })
  }
}

const stampOf = (ms: number): string => new Date(ms).toISOString().replace(/[-:]|\.\d+/g, '')

/**
 * Runs every check of `verify` against one target through `transport`
 * (runtime-free: Node passes fetch, tests may pass a sandbox's own handler),
 * and returns the report with every secret redacted. Spec checks judge the
 * target against the spec; gap checks put what it does where the spec is
 * silent next to the sandbox's setting. Safe by default: read-only unless
 * `allowWrites`, at most `maxRequests` requests, nothing after a 429.
 *
 * @example
 * const report = await runVerify({ transport, baseUrl: 'https://staging.example/v1', key })
 */
export const runVerify = async (options: RunVerifyOptions): Promise<VerifyReport> => {
  const now = options.now ?? (() => Date.now())
  const startedAt = new Date(now()).toISOString()
  const maxRequests = options.maxRequests ?? 150
  const runner = createProbeRunner({
    transport: options.transport,
    baseUrl: options.baseUrl,
    key: options.key,
    maxRequests,
    now,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
    checkDocument: checkerOf(options.document),
  })
  const ctx: VerifyContext = {
    runner,
    current: options.sandbox ?? { ...FIDELITY_DEFAULTS },
    allowWrites: options.allowWrites === true,
    stamp: stampOf(now()),
    results: new Map(),
    gaps: new Map(),
    sightings: [],
    created: [],
    writesStopped: undefined,
    document: options.document,
    listed: { count: 0, firstId: undefined, defaultCount: undefined },
  }
  const keyAccepted = await runListChecks(ctx)
  await runAuthChecks(ctx)
  if (keyAccepted && ctx.allowWrites) {
    await runWriteChecks(ctx)
    await findMaxBodyBytes(ctx)
    await findNameMaxLength(ctx)
  }
  if (keyAccepted) await runGetChecks(ctx)
  if (keyAccepted && options.document !== undefined) await runDocumentChecks(ctx, options.document)
  const codesSeen = observeErrorCodes(ctx)
  const gaps = toGapChecks(ctx, codesSeen)

  const checks: VerifyCheck[] = []
  const skipped: SkippedCheck[] = []
  const failed = runner.state.failed
  const keyRefused = !keyAccepted && runner.state.stopped === undefined
  for (const [id, info] of Object.entries(VERIFY_CHECKS)) {
    // Without a document its checks are not part of the run: a report stays as it was.
    if (ctx.document === undefined && id.startsWith('spec.document.')) continue
    const check =
      failed?.check === id
        ? {
            id,
            kind: info.kind,
            pass: false,
            observed: 'no answer',
            expected: 'an answer',
            message: failed.message,
          }
        : (ctx.results.get(id) ??
          gaps.checks.find((c) => c.id === id) ??
          (Object.hasOwn(ANSWER_RULES, id) ? ruleCheck(ctx, id as AnswerRule) : undefined))
    if (check !== undefined) checks.push(check)
    else skipped.push({ id, kind: info.kind, reason: skipReason(ctx, id, keyRefused) })
  }
  const spec = checks.filter((c) => c.kind === 'spec')
  const gap = checks.filter((c) => c.kind === 'gap')
  const report: VerifyReport = {
    target: redactTarget(options.baseUrl),
    startedAt,
    finishedAt: new Date(now()).toISOString(),
    requests: runner.state.requests,
    maxRequests,
    allowWrites: ctx.allowWrites,
    createdPets: ctx.created,
    rateLimit: runner.state.rateLimit ?? null,
    stopped: runner.state.stopped ?? null,
    passed: spec.every((c) => c.pass) && runner.state.stopped === undefined,
    summary: {
      spec: {
        passed: spec.filter((c) => c.pass).length,
        failed: spec.filter((c) => !c.pass).length,
        skipped: skipped.filter((s) => s.kind === 'spec').length,
      },
      gap: {
        same: gap.filter((c) => c.pass).length,
        different: gap.filter((c) => !c.pass).length,
        skipped: skipped.filter((s) => s.kind === 'gap').length,
      },
    },
    checks,
    skipped,
    config: gaps.config,
  }
  return redactReport(report, [options.key])
}
