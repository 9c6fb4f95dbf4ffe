/**
 * Client code as people write it, good and bad, for the client-behaviour
 * report's proof (issue 23): plain `fetch`, an injected `sleep` (the tests
 * advance the sandbox clock instead of waiting) and an injected give-up
 * signal (where production code passes `AbortSignal.timeout(ms)`).
 */
export interface ClientOptions {
  /** The API's base, e.g. `https://api.example.test/v1`. */
  api: string
  key: string
  sleep: (ms: number) => Promise<void>
  /** A fresh signal per attempt that fires when the client gives up waiting. */
  giveUp?: () => AbortSignal
}

interface NewPet {
  name: string
  categoryId: number
  status?: string
}

const auth = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` })

const retryAfterMs = (response: Response): number =>
  Number(response.headers.get('retry-after') ?? '0') * 1000

/** A failed connection or a given-up answer, as a value: the caller decides. */
const attempt = async (
  url: string,
  init: RequestInit,
  giveUp: (() => AbortSignal) | undefined,
): Promise<Response | 'failed'> => {
  try {
    return await fetch(url, giveUp === undefined ? init : { ...init, signal: giveUp() })
  } catch {
    return 'failed'
  }
}

/**
 * The careful client: waits what Retry-After says and backs off
 * exponentially (max(Retry-After, 1 s · 2^n)), stops when banned or refused,
 * lists with the status filter (never the deprecated getPet), sends the key
 * in the header only, and after a create it gave up on looks the pet up
 * before creating it again.
 */
export const createCarefulClient = ({ api, key, sleep, giveUp }: ClientOptions) => {
  const get = async (url: string, attempts = 5): Promise<Response | 'failed'> => {
    let last: Response | 'failed' = 'failed'
    for (let n = 0; n < attempts; n++) {
      last = await attempt(url, { headers: auth(key) }, giveUp)
      if (last !== 'failed') {
        if (last.status === 401) throw new Error('The API refused the key: ask for a valid one.')
        const body = last.status === 429 ? ((await last.clone().json()) as { code: string }) : null
        if (body?.code === 'api_key_banned') return last
        if (last.status !== 429 && last.status !== 503) return last
      }
      if (n < attempts - 1)
        await sleep(Math.max(last === 'failed' ? 0 : retryAfterMs(last), 1000 * 2 ** n))
    }
    return last
  }
  const listAvailable = (attempts?: number) =>
    get(`${api}/pets?status=available&limit=100`, attempts)
  return {
    listAvailable,
    /** Polls the list every `intervalMs`; after a 429 it waits at least its Retry-After. */
    async poll(times: number, intervalMs: number): Promise<(number | 'failed')[]> {
      const seen: (number | 'failed')[] = []
      for (let n = 0; n < times; n++) {
        const response = await listAvailable(1)
        seen.push(response === 'failed' ? 'failed' : response.status)
        const wait = response === 'failed' ? 0 : retryAfterMs(response)
        if (n < times - 1) await sleep(Math.max(wait, intervalMs))
      }
      return seen
    },
    async createOnce(pet: NewPet): Promise<'created' | 'already there' | 'failed'> {
      const sent = await attempt(
        `${api}/pets`,
        {
          method: 'POST',
          headers: { ...auth(key), 'content-type': 'application/json' },
          body: JSON.stringify(pet),
        },
        giveUp,
      )
      if (sent !== 'failed') return sent.status === 201 ? 'created' : 'failed'
      // It may have been created all the same: look before sending it again.
      await sleep(1000)
      const listed = await get(`${api}/pets?limit=100`)
      if (listed === 'failed' || !listed.ok) return 'failed'
      const pets = (await listed.json()) as { name: string }[]
      return pets.some((p) => p.name === pet.name) ? 'already there' : 'failed'
    },
  }
}

/** Retries on a fixed interval, whatever the server says. */
export const retryEvery = async (
  { api, key, sleep }: ClientOptions,
  waitMs: number,
  attempts: number,
): Promise<(number | 'failed')[]> => {
  const seen: (number | 'failed')[] = []
  for (let n = 0; n < attempts; n++) {
    const response = await attempt(`${api}/pets`, { headers: auth(key) }, undefined)
    seen.push(response === 'failed' ? 'failed' : response.status)
    if (response !== 'failed' && response.status < 400) break
    if (n < attempts - 1) await sleep(waitMs)
  }
  return seen
}

/** Polls on a fixed interval and reads no answer. */
export const pollEvery = async (
  { api, key, sleep }: ClientOptions,
  intervalMs: number,
  times: number,
): Promise<(number | 'failed')[]> => {
  const seen: (number | 'failed')[] = []
  for (let n = 0; n < times; n++) {
    const response = await attempt(`${api}/pets`, { headers: auth(key) }, undefined)
    seen.push(response === 'failed' ? 'failed' : response.status)
    if (n < times - 1) await sleep(intervalMs)
  }
  return seen
}

/** Still fetches one pet by id: the deprecated getPet. */
export const fetchPetById = async ({ api, key }: ClientOptions, id: number): Promise<number> =>
  (await fetch(`${api}/pets/${id}`, { headers: auth(key) })).status

/** Puts the key in the URL too ("it's only a sandbox"). */
export const listWithKeyInUrl = async ({ api, key }: ClientOptions): Promise<number> =>
  (await fetch(`${api}/pets?api_key=${encodeURIComponent(key)}`, { headers: auth(key) })).status

/** Creates, and on a failure simply sends the same create again. */
export const createWithBlindRetry = async (
  { api, key, sleep, giveUp }: ClientOptions,
  pet: NewPet,
): Promise<(number | 'failed')[]> => {
  const seen: (number | 'failed')[] = []
  for (let n = 0; n < 2; n++) {
    const response = await attempt(
      `${api}/pets`,
      {
        method: 'POST',
        headers: { ...auth(key), 'content-type': 'application/json' },
        body: JSON.stringify(pet),
      },
      giveUp,
    )
    seen.push(response === 'failed' ? 'failed' : response.status)
    if (response !== 'failed') break
    await sleep(1000)
  }
  return seen
}
