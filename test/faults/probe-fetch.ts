/** What a `fetch` client saw of one request. */
export interface FetchProbe {
  /** The fetch itself rejected (no response): the error's name. */
  rejected?: string
  status?: number
  contentType?: string | null
  contentLength?: string | null
  rateLimited?: boolean
  /** The body as text, when reading it succeeded. */
  text?: string
  /** Reading the body threw: the error's name. */
  bodyError?: string
  /** Ms until the headers (or the rejection), and until the body was read (or failed). */
  headMs?: number
  bodyMs?: number
}

/**
 * Sends one request with `fetch` and reads its body as text, noting what
 * failed where. Self-contained (no imports, no outer names): tests also send
 * its source into a page with `page.evaluate`.
 *
 * @example
 * const seen = await probeFetch('https://api.example.test/v1/pets?__scenario=reset-mid-body', { headers })
 */
export async function probeFetch(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<FetchProbe> {
  const started = performance.now()
  const seen: FetchProbe = {}
  let response: Response
  try {
    response = await fetch(url, init)
  } catch (error) {
    seen.rejected = (error as Error).name
    seen.headMs = performance.now() - started
    return seen
  }
  seen.headMs = performance.now() - started
  seen.status = response.status
  seen.contentType = response.headers.get('content-type')
  seen.contentLength = response.headers.get('content-length')
  seen.rateLimited = response.headers.has('x-ratelimit-limit')
  try {
    seen.text = await response.text()
  } catch (error) {
    seen.bodyError = (error as Error).name
  }
  seen.bodyMs = performance.now() - started
  return seen
}
