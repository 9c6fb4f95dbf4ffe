import { createServer, type Server } from 'node:http'
import type { VerifierOptions } from '@pact-foundation/pact-core'

// The provider's side of a Pact verification against the standalone server, shared by the
// tests that run the real verifier (pact-core's Rust verifier, prebuilt in the npm package,
// no network). Pact's usage statistics are off: nothing leaves the machine.
process.env.PACT_DO_NOT_TRACK = 'true'
type PactCore = { verifyPacts(options: VerifierOptions): Promise<string> }
// pact-core is CommonJS: its default export is `module.exports.default` under Node's interop.
const loaded = (await import('@pact-foundation/pact-core')) as unknown as {
  default: PactCore & { default?: PactCore }
}
export const pactCore: PactCore = loaded.default.default ?? loaded.default

const JSON_TYPE = { 'content-type': 'application/json' }

/** Listens on a free port of 127.0.0.1; resolves its origin. */
export const listen = (server: Server): Promise<string> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve(
        typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '',
      )
    }),
  )

/**
 * The provider's state handler (docs/pact.md): each state is a reset, its scenario and a key
 * of its plan, set through the sandbox's control API at `origin`. `seen` collects the states
 * set up; a scenario the sandbox refuses fails the setup (500), and so the verification.
 */
export const stateHandler = (origin: string, seen: string[] = []): Server =>
  createServer((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      text += chunk
    })
    req.on('end', async () => {
      const { state, action, params } = JSON.parse(text) as {
        state: string
        action: 'setup' | 'teardown'
        params: { scenario: string; plan?: string }
      }
      let values = {}
      if (action === 'setup') {
        seen.push(state)
        await fetch(`${origin}/__sandbox/reset`, { method: 'POST' })
        const scenario = await fetch(`${origin}/__sandbox/scenario`, {
          method: 'PUT',
          headers: JSON_TYPE,
          body: JSON.stringify({ name: params.scenario }),
        })
        if (scenario.status !== 200) {
          res.writeHead(500, JSON_TYPE).end(JSON.stringify({ error: await scenario.text() }))
          return
        }
        if (params.plan !== undefined) {
          const created = await fetch(`${origin}/__sandbox/keys`, {
            method: 'POST',
            headers: JSON_TYPE,
            body: JSON.stringify({ plan: params.plan }),
          })
          values = { apiKey: ((await created.json()) as { key: string }).key }
        }
      }
      res.writeHead(200, JSON_TYPE).end(JSON.stringify(values))
    })
  })
