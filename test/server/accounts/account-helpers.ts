import {
  createSandboxServer,
  type SandboxServer,
} from '../../../src/server/create-sandbox-server.js'
import type { SandboxServerOptions } from '../../../src/server/server-options.js'

export const ADMIN = 'admin-token-for-accounts-tests-0123456789'

/** A server with accounts on a free port, its clock a variable the test moves. */
export const startAccountsServer = async (
  options: SandboxServerOptions<string> = {},
): Promise<{
  app: SandboxServer<string>
  origin: string
  clock: { now: number }
  close(): Promise<void>
}> => {
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') }
  const app = createSandboxServer<string>({
    accounts: 'open',
    adminToken: ADMIN,
    now: () => clock.now,
    ...options,
  })
  const { url } = await app.listen(0, '127.0.0.1')
  return { app, origin: url, clock, close: () => app.close() }
}

/** A client of the portal API that keeps its cookie and CSRF token, as a browser would. */
export const portalClient = (origin: string) => {
  let cookie: string | undefined
  let csrf: string | undefined
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const all: Record<string, string> = { ...headers }
    if (body !== undefined) all['content-type'] = 'application/json'
    if (cookie !== undefined) all.cookie = cookie
    if (csrf !== undefined && method !== 'GET') all['x-csrf-token'] ??= csrf
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: all,
      body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const setCookie = response.headers.get('set-cookie')
    if (setCookie !== null) {
      const value = setCookie.split(';')[0] ?? ''
      cookie = value.endsWith('=') ? undefined : value
    }
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      // biome-ignore lint/suspicious/noExplicitAny: the tests read whichever shape the route answers.
      body: (text === '' ? undefined : JSON.parse(text)) as any,
    }
  }
  return {
    call,
    api: (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      call(method, `/portal/api${path}`, body, headers),
    async signup(email: string, password = 'a long passphrase 1') {
      const answer = await call('POST', '/portal/api/signup', { email, password })
      if (answer.status === 201) await this.refreshCsrf()
      return answer
    },
    async refreshCsrf() {
      const me = await call('GET', '/portal/api/me')
      csrf = me.status === 200 ? String(me.body?.csrfToken) : undefined
      return me
    },
    get cookie() {
      return cookie
    },
    set cookie(value: string | undefined) {
      cookie = value
    },
    get csrf() {
      return csrf
    },
    set csrf(value: string | undefined) {
      csrf = value
    },
  }
}

/** A request to the API with a key. */
export const api = async (
  origin: string,
  key: string,
  path = '/v1/pets',
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) => {
  const response = await fetch(`${origin}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  }
}

/** A control-API request as the admin or with another bearer token. */
export const control = async (
  origin: string,
  method: string,
  path: string,
  token: string = ADMIN,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const response = await fetch(`${origin}/__sandbox${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? null : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = text
  }
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whichever shape the route answers.
  return { status: response.status, headers: response.headers, body: parsed as any }
}
