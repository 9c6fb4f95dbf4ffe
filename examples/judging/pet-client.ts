/**
 * A small client of the Pet Store API with the habits the sandbox judges:
 * it retries refused answers with exponential back-off (never sooner than
 * Retry-After). `sleep` is injectable, so a test moves the sandbox clock
 * instead of waiting.
 */
export interface ClientOptions {
  api: string
  key: string
  sleep?: (ms: number) => Promise<void>
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Lists the available pets; retries 429 and 503 up to four times. */
export const listAvailable = async ({ api, key, sleep = wait }: ClientOptions) => {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${api}/pets?status=available`, {
      headers: { authorization: `Bearer ${key}` },
    })
    if ((response.status !== 429 && response.status !== 503) || attempt === 4) return response
    const retryAfter = Number(response.headers.get('retry-after') ?? '0') * 1000
    await sleep(Math.max(retryAfter, 1000 * 2 ** attempt))
  }
}

/** The old way to read one pet: the deprecated getPet. */
export const getPet = ({ api, key }: ClientOptions, id: number) =>
  fetch(`${api}/pets/${id}`, { headers: { authorization: `Bearer ${key}` } })
