// petstore-sandbox.config.mjs: npx petstore-sandbox --config petstore-sandbox.config.mjs
import { HttpResponse, http } from 'msw'
import { ApiError, defineConfig, defineScenario } from 'petstore-sandbox/server'

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
  keys: { 'team-key': 'pro' },
  scenarios: [maintenance], // ?__scenario=maintenance, --scenario, the dashboard…
  handlers: [
    // One more endpoint beside the contract's (key, quota, scenario, journal: docs/your-endpoints.md),
    // and a plain function for a path outside /v1.
    http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }])),
    (request) =>
      new URL(request.url).pathname === '/health' ? Response.json({ ok: true }) : undefined,
  ],
})
