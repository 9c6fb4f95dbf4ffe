import type { Sandbox, SandboxResponse } from '../../src/index.js'

export const ORIGIN = 'https://api.example.test'

export interface CallOptions {
  method?: string
  /** Path below `/v1`, with query. */
  path: string
  /** API key (default `sandbox-enterprise`); null sends no Authorization header. */
  key?: string | null
  headers?: Record<string, string>
  body?: unknown
}

/** Sends one request to the core, without a runtime: fast, and no delay is ever waited for. */
export const callSandbox = async (
  sandbox: Sandbox,
  { method = 'GET', path, key = 'sandbox-enterprise', headers = {}, body }: CallOptions,
): Promise<SandboxResponse & { json: unknown }> => {
  const allHeaders: Record<string, string> = { ...headers }
  if (key !== null) allHeaders.authorization = `Bearer ${key}`
  if (body !== undefined) allHeaders['content-type'] = 'application/json'
  const response = await sandbox.handle({
    method,
    url: `${ORIGIN}/v1${path}`,
    headers: allHeaders,
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  })
  if (response === null) throw new Error(`Failed to call the sandbox: ${path} is not an API path.`)
  return { ...response, json: response.body === null ? null : JSON.parse(response.body) }
}
