/** A pet as the API returns it. */
export interface Pet {
  id: number
  name: string
  categoryId: number
  status: string
}

/** The contract's Error body, or a network failure (status 0). */
export interface ApiProblem {
  status: number
  code: string
  message: string
}

/** One answer of the API, with the headers the app shows. */
export interface ApiResult<T> {
  data: T | undefined
  problem: ApiProblem | undefined
  rateLimit: { limit: string | null; remaining: string | null; reset: string | null }
  /** The `rel="next"` link of a page of pets. */
  nextUrl: string | undefined
  total: string | null
  /** The `Sunset` header of the deprecated getPet. */
  sunset: string | null
}

export interface ApiClientOptions {
  apiBase: string
  apiKey: string
  /** The scenario to request with `X-Sandbox-Scenario`; empty for the sticky one. */
  scenario: () => string
}

const readProblem = (status: number, text: string): ApiProblem => {
  try {
    const body: unknown = JSON.parse(text)
    if (typeof body === 'object' && body !== null && 'code' in body && 'message' in body) {
      return { status, code: String(body.code), message: String(body.message) }
    }
  } catch {
    // Not JSON: reported below.
  }
  return { status, code: 'unexpected_response', message: `HTTP ${status} without an Error body.` }
}

const nextLink = (link: string | null): string | undefined =>
  link?.match(/<([^>]+)>\s*;\s*rel="next"/)?.[1]

/**
 * The app's Pet Store client: `fetch`, the key, the chosen scenario, and the
 * headers the page shows. Never throws: failures come back as `problem`.
 *
 * @example
 * const api = createApiClient({ apiBase: '/v1', apiKey: 'sandbox-free', scenario: () => '' })
 * const page = await api.listPets({ status: 'available' })
 */
export const createApiClient = (options: ApiClientOptions) => {
  const send = async <T>(url: string, init: RequestInit = {}): Promise<ApiResult<T>> => {
    const headers = new Headers(init.headers)
    headers.set('Authorization', `Bearer ${options.apiKey}`)
    const scenario = options.scenario()
    if (scenario !== '') headers.set('X-Sandbox-Scenario', scenario)
    let response: Response
    try {
      response = await fetch(url, { ...init, headers })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return {
        data: undefined,
        problem: { status: 0, code: 'network_error', message: `The request failed: ${message}` },
        rateLimit: { limit: null, remaining: null, reset: null },
        nextUrl: undefined,
        total: null,
        sunset: null,
      }
    }
    const text = await response.text()
    return {
      data: response.ok ? (JSON.parse(text) as T) : undefined,
      problem: response.ok ? undefined : readProblem(response.status, text),
      rateLimit: {
        limit: response.headers.get('X-RateLimit-Limit'),
        remaining: response.headers.get('X-RateLimit-Remaining'),
        reset: response.headers.get('X-RateLimit-Reset'),
      },
      nextUrl: nextLink(response.headers.get('Link')),
      total: response.headers.get('X-Total-Count'),
      sunset: response.headers.get('Sunset'),
    }
  }
  return {
    /** The first page (optionally filtered), or the page a `nextUrl` points to. */
    listPets: (query: { status?: string; pageUrl?: string }) => {
      const url = new URL(query.pageUrl ?? `${options.apiBase}/pets`)
      if (query.pageUrl === undefined) {
        url.searchParams.set('limit', '10')
        if (query.status) url.searchParams.set('status', query.status)
      }
      return send<Pet[]>(url.href)
    },
    createPet: (pet: { name: string; categoryId: number; status?: string }) =>
      send<Pet>(`${options.apiBase}/pets`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(pet),
      }),
    getPet: (id: string) => send<Pet>(`${options.apiBase}/pets/${encodeURIComponent(id)}`),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
