import type { SandboxRequest, SandboxResponse } from '../http/types.js'
import { type JournalEntry, journalBody } from '../journal/journal.js'
import { redactHeaders, redactUrl } from '../journal/redact-secrets.js'
import type { SessionState } from '../state/sandbox-state.js'
import type { PipelineContext } from './pipeline-context.js'

export interface FinishInput {
  request: SandboxRequest
  url: URL
  response: SandboxResponse
  session: SessionState
  now: number
  /** Headers of the operation (getPet's deprecation headers), on every answer of it. */
  operationHeaders: Record<string, string>
  /** `X-RateLimit-*` for the caller's bucket. */
  rateLimitHeaders: Record<string, string>
  scenario: string
  plan: string | undefined
  /** `performance.now()` when the request arrived. */
  startedAt: number
}

/**
 * Stage 8: the answer's headers, in one stated order (later wins): the
 * operation's headers, then the rate-limit headers, then the response's own
 * (so a forced 429 can say `X-RateLimit-Remaining: 0`); `HEAD` loses the body;
 * then the journal entry (secrets redacted) and the `request` event.
 *
 * @example
 * const { response, entry } = await finish(ctx, input)
 */
export const finish = async (
  ctx: PipelineContext,
  input: FinishInput,
): Promise<{ response: SandboxResponse; entry: JournalEntry }> => {
  const { request, url, session } = input
  const response: SandboxResponse = {
    ...input.response,
    headers: { ...input.operationHeaders, ...input.rateLimitHeaders, ...input.response.headers },
  }
  if (request.method === 'HEAD' && response.body !== null) {
    // The GET's headers, its length included, without the body (contract §15).
    response.headers['Content-Length'] = String(new TextEncoder().encode(response.body).byteLength)
    response.body = null
  }
  const failed = response.fault !== undefined
  const entry = await session.record({
    time: new Date(input.now).toISOString(),
    session: session.id,
    method: request.method,
    url: redactUrl(url.href),
    status: failed ? null : response.status,
    fault: response.fault,
    scenario: input.scenario,
    plan: input.plan,
    durationMs: Math.round((performance.now() - input.startedAt) * 1000) / 1000,
    delayMs: response.delayMs ?? 0,
    request: { headers: redactHeaders(request.headers), ...journalBody(request.body) },
    response: failed
      ? null
      : { headers: redactHeaders(response.headers), ...journalBody(response.body) },
  })
  if (ctx.state.events.has('request'))
    await ctx.state.events.emit('request', entry).catch(ctx.onError)
  return { response, entry }
}
