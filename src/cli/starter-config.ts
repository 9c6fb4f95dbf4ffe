/**
 * The commented config file `petstore-sandbox init` writes: it runs as it is
 * (one handler of each kind, one scenario of your own) and names every other
 * setting, commented out with its default. `typescript` adds the one type
 * annotation a `.ts`/`.mts` file needs.
 *
 * @example
 * writeFileSync('petstore-sandbox.config.mjs', starterConfig({ typescript: false }))
 */
export const starterConfig = ({ typescript }: { typescript: boolean }): string => {
  const request = typescript ? 'request: Request' : 'request'
  return `// petstore-sandbox config: npx petstore-sandbox --config ${typescript ? 'petstore-sandbox.config.ts' : 'petstore-sandbox.config.mjs'}
// A flag wins over its environment variable (PETSTORE_SANDBOX_<FLAG>), which wins over this
// file, which wins over the default. Every setting: docs/server.md in the petstore-sandbox package (node_modules/petstore-sandbox/docs/server.md).
import { HttpResponse, http } from 'msw'
import { ApiError, defineConfig, defineScenario } from 'petstore-sandbox/server'

// A failure mode of your own: select it like a built-in one (?__scenario=maintenance,
// X-Sandbox-Scenario: maintenance, PUT /__sandbox/scenario, --scenario, the dashboard).
const maintenance = defineScenario({
  name: 'maintenance',
  description: 'Reads work; every create answers 503 with Retry-After: 60.',
  respond: ({ operationId }) =>
    operationId === 'createPet'
      ? new ApiError('service_unavailable', 'Read-only during maintenance.', {
          headers: { 'Retry-After': '60' },
        })
      : undefined,
})

export default defineConfig({
  // port: 4010,                    // 0 picks a free port
  // host: '127.0.0.1',             // '0.0.0.0' serves every interface
  // seed: 20301205,                // the same seed gives the same pets
  // pets: 25,                      // 0 to 1,000,000
  // scenario: 'default',           // sticky at start and after a reset; 'maintenance' works too
  // keys: { 'team-key': 'pro', 'big-co': { plan: 'enterprise', perMinute: 20000, perDay: 2000000 } },
  // data: './pets.json',           // keep the pets in a file, relative to this one
  // adminToken: process.env.SANDBOX_ADMIN_TOKEN, // open the control API to callers sending it
  // allowedHosts: ['sandbox.internal'],
  // basePath: '/v1',
  // quiet: false,                  // true: no request log
  // sessionTtl: '1h',              // 90 (seconds), '90s', '30m', '2h'
  // maxSessions: 1000,
  // store: 'redis://127.0.0.1:6379/0', // several instances as one sandbox (not with data)
  // rateLimit: { banAfter: 20, banMinutes: 15 },
  // flaky: { rate: 0.3, seed: 7 },
  // journalSize: 500,              // requests each session's journal keeps
  // journalMaxEntries: 10000,      // requests every session's journal keeps together
  // journalMaxBytes: 33554432,     // about how many bytes they keep together (32 MiB)

  // Your scenarios, next to the built-in ones.
  scenarios: [maintenance],

  // Your handlers: the sandbox answers the contract's routes (/v1/pets, /v1/pets/{petId});
  // these answer any other path, under /v1 and outside it, the first answer winning.
  handlers: [
    // An MSW handler: one more endpoint beside the contract's.
    http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }])),
    // A plain function: a Response, or undefined to pass the request on.
    (${request}) =>
      new URL(request.url).pathname === '/health' ? Response.json({ ok: true }) : undefined,
  ],
})
`
}
