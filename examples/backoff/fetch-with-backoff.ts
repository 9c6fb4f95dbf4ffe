/**
 * An example API client helper: `fetch` that retries 429 and 503 answers with
 * exponential back-off, never sooner than the server's `Retry-After`. Plain
 * fetch and no dependencies, so you can copy it into your client.
 * `fetch-with-backoff.test.ts` beside it tests it against the sandbox without
 * waiting a single real second.
 */
export interface BackoffOptions {
  /** How many times to try in all, the first included (default 5). */
  attempts?: number
  /** The first wait; it doubles after each refused attempt (default 1,000 ms). */
  baseDelayMs?: number
  /** The exponential part never waits longer than this (default 60,000 ms). A longer Retry-After still wins. */
  maxDelayMs?: number
  /** Adds up to this share of the wait as random jitter, so clients don't retry in lockstep (default 0.2). */
  jitter?: number
  /** A number in [0, 1) for the jitter (default Math.random). */
  random?: () => number
  /** How to wait (default a timer). Tests pass a function that advances the sandbox clock instead. */
  sleep?: (ms: number) => Promise<void>
  /** Called before each wait, e.g. to log it. */
  onRetry?: (retry: { attempt: number; status: number; delayMs: number }) => void
}

/** Answers worth retrying later: too many requests, and service unavailable. */
const RETRYABLE = new Set([429, 503])

const timer = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** `Retry-After` as milliseconds; 0 when absent or not delta-seconds. */
const retryAfterMs = (value: string | null): number => {
  if (value === null || !/^\d+$/.test(value.trim())) return 0
  return Number(value.trim()) * 1000
}

/**
 * How long to wait before retry number `attempt` (0 for the first retry):
 * `baseDelayMs * 2^attempt` capped at `maxDelayMs`, plus jitter, and at least
 * what `Retry-After` asks.
 *
 * @example
 * backoffDelay({ attempt: 2, retryAfter: '1', random: () => 0 }) // 4000
 */
export const backoffDelay = ({
  attempt,
  retryAfter,
  baseDelayMs = 1_000,
  maxDelayMs = 60_000,
  jitter = 0.2,
  random = Math.random,
}: BackoffOptions & { attempt: number; retryAfter: string | null }): number => {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt)
  const jittered = Math.round(exponential * (1 + jitter * random()))
  return Math.max(jittered, retryAfterMs(retryAfter))
}

/**
 * `fetch` with retries: a 429 or 503 is retried after `backoffDelay`, up to
 * `attempts` tries; any other answer, or the last one, is returned as is.
 * Only retry requests that are safe to repeat (GET, or a POST your API
 * deduplicates).
 *
 * @example
 * const response = await fetchWithBackoff('https://api.example.test/v1/pets', {
 *   headers: { authorization: 'Bearer sandbox-free' },
 * })
 */
export const fetchWithBackoff = async (
  input: string | URL,
  init: RequestInit = {},
  options: BackoffOptions = {},
): Promise<Response> => {
  const { attempts = 5, sleep = timer, onRetry } = options
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(input, init)
    if (!RETRYABLE.has(response.status) || attempt + 1 >= attempts) return response
    const delayMs = backoffDelay({
      ...options,
      attempt,
      retryAfter: response.headers.get('retry-after'),
    })
    // Read the small error body so the connection can be reused.
    await response.text()
    onRetry?.({ attempt, status: response.status, delayMs })
    await sleep(delayMs)
  }
}
