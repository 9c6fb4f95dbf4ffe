import { setupServer } from 'msw/node'
import { type CreateSandboxOptions, createSandbox, type Sandbox } from '../../../src/index.js'
import { localControls } from '../../support/local-controls.js'
import {
  type ConformanceTarget,
  headerPairs,
  inSession,
  type WireResponse,
} from '../parts/target.js'

const BASE_URL = 'https://api.example.test/v1'

/** The sandbox in this process: requests go through `fetch` and MSW's `setupServer`. */
export const createInProcessTarget = (
  options: CreateSandboxOptions = {},
): ConformanceTarget & { sandbox: Sandbox; start(): void; stop(): void } => {
  const sandbox = createSandbox(options)
  const server = setupServer(...sandbox.handlers)
  const target: ConformanceTarget & { sandbox: Sandbox; start(): void; stop(): void } = {
    name: 'in-process (msw/node)',
    baseUrl: BASE_URL,
    sandbox,
    start: () => server.listen({ onUnhandledRequest: 'error' }),
    stop: () => server.close(),
    async send({ method, path, headers = {}, body }): Promise<WireResponse> {
      const response = await fetch(`${BASE_URL}${path}`, {
        method,
        headers: headerPairs(headers),
        body: body ?? null,
      })
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      }
    },
    controls: localControls(sandbox),
    session: (id) => inSession(target, id, localControls(sandbox.session(id))),
  }
  return target
}
