import { ApiError } from '../http/api-error.js'
import type { Forwarder, UpstreamReply, UpstreamRequest } from '../http/forwarder.js'

export type Answered = Extract<UpstreamReply, { kind: 'answer' }>

/** A request as the core builds it; the limits are added by `callUpstream`. */
export type OutgoingRequest = Omit<UpstreamRequest, 'signal' | 'maxBodyBytes' | 'timeoutMs'>

/** How far an exchange may go: the whole of it in ms, the body in bytes. */
export interface UpstreamLimits {
  timeoutMs: number
  maxBodyBytes: number
}

/** 502 `upstream_unavailable`, saying why. */
const unavailable = (url: string, reason: string): ApiError =>
  new ApiError(
    'upstream_unavailable',
    `The upstream ${origin(url)} could not be reached: ${reason}. The request was not answered by it.`,
  )

/** 504 `upstream_timeout`. */
const timedOut = (url: string, ms: number): ApiError =>
  new ApiError(
    'upstream_timeout',
    `The upstream ${origin(url)} did not answer within ${ms} ms. Retry, or raise the upstream timeout.`,
  )

/** 502 `upstream_unavailable`: the body passed the limit, named with its setting. */
const tooLarge = (url: string, limit: number, decoded: boolean): ApiError =>
  new ApiError(
    'upstream_unavailable',
    `The upstream ${origin(url)} answered a body larger than ${limit} bytes${decoded ? ' once decompressed' : ''}, the limit (upstream maxBodyBytes, --upstream-max-body); the sandbox stopped reading it. Raise the limit if such answers are expected.`,
    { details: [{ field: 'upstream.maxBodyBytes', message: `at most ${limit} bytes` }] },
  )

const isStatus = (status: number): boolean =>
  Number.isInteger(status) && status >= 100 && status <= 599

const origin = (url: string): string => {
  try {
    return new URL(url).origin
  } catch {
    return 'deployment'
  }
}

/**
 * Sends a request to the upstream through the runtime's forwarder, bounded by
 * `timeoutMs` whatever the forwarder does (its signal is aborted then, body
 * included) and by `maxBodyBytes` (the forwarder stops reading past it): an
 * answer, or 502 `upstream_unavailable` / 504 `upstream_timeout` thrown as an
 * ApiError. Never hangs.
 *
 * @example
 * const answer = await callUpstream(forward, { method: 'GET', url, headers, body: null }, { timeoutMs: 10_000, maxBodyBytes: 10_485_760 })
 */
export const callUpstream = (
  forward: Forwarder,
  request: OutgoingRequest,
  { timeoutMs, maxBodyBytes }: UpstreamLimits,
): Promise<Answered> => {
  const controller = new AbortController()
  return new Promise<Answered>((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort()
      reject(timedOut(request.url, timeoutMs))
    }, timeoutMs)
    const settle = (reply: UpstreamReply): void => {
      clearTimeout(timer)
      if (controller.signal.aborted) return
      // A status no client can be given (node's client reads `099` as 99): no answer at all.
      if (reply.kind === 'answer' && !isStatus(reply.status))
        reject(unavailable(request.url, `it answered the invalid status ${reply.status}`))
      else if (reply.kind === 'answer') resolve(reply)
      else if (reply.kind === 'too-large')
        reject(tooLarge(request.url, maxBodyBytes, reply.decoded))
      else reject(unavailable(request.url, reply.reason))
    }
    let pending: Promise<UpstreamReply>
    try {
      pending = forward({ ...request, signal: controller.signal, maxBodyBytes, timeoutMs })
    } catch (error) {
      pending = Promise.reject(error)
    }
    pending.then(settle, (error: unknown) =>
      settle({
        kind: 'unavailable',
        reason: error instanceof Error ? error.message : String(error),
      }),
    )
  })
}
