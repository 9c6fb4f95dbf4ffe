import { ApiError } from '../http/api-error.js'
import type { Forwarder, UpstreamReply, UpstreamRequest } from '../http/forwarder.js'

export type Answered = Extract<UpstreamReply, { kind: 'answer' }>

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

const origin = (url: string): string => {
  try {
    return new URL(url).origin
  } catch {
    return 'deployment'
  }
}

/**
 * Sends a request to the upstream through the runtime's forwarder, bounded by
 * `timeoutMs` whatever the forwarder does (its signal is aborted then): an
 * answer, or 502 `upstream_unavailable` / 504 `upstream_timeout` thrown as an
 * ApiError. Never hangs.
 *
 * @example
 * const answer = await callUpstream(forward, { method: 'GET', url, headers, body: null }, 10_000)
 */
export const callUpstream = (
  forward: Forwarder,
  request: Omit<UpstreamRequest, 'signal'>,
  timeoutMs: number,
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
      if (reply.kind === 'answer') resolve(reply)
      else reject(unavailable(request.url, reply.reason))
    }
    let pending: Promise<UpstreamReply>
    try {
      pending = forward({ ...request, signal: controller.signal })
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
