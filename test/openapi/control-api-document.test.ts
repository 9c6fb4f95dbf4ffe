import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'
import { checkResponseAgainstOpenApi } from '../support/openapi-validator.js'

const JSON_BODY = { 'content-type': 'application/json' }

// [method, path, body, expected status, request headers]: every control route, its errors included.
const EXCHANGES: [string, string, string | undefined, number, Record<string, string>?][] = [
  ['GET', '/__sandbox/', undefined, 200],
  ['HEAD', '/__sandbox/clock', undefined, 200],
  ['GET', '/__sandbox/openapi.json', undefined, 200],
  ['GET', '/__sandbox/scenario', undefined, 200],
  ['PUT', '/__sandbox/scenario', '{"name":"empty"}', 200],
  ['PUT', '/__sandbox/scenario', '{"name":"no-such-scenario"}', 400],
  ['PUT', '/__sandbox/scenario', '{"name":', 400],
  ['PUT', '/__sandbox/scenario', '{"name":"empty"}', 400, { 'content-type': 'text/plain' }],
  ['PUT', '/__sandbox/scenario', `{"name":"${'x'.repeat(70_000)}"}`, 413],
  ['GET', '/__sandbox/mode', undefined, 200],
  ['PUT', '/__sandbox/mode', '{"mode":"sandbox"}', 200],
  ['PUT', '/__sandbox/mode', '{"mode":"upstream"}', 409],
  ['PUT', '/__sandbox/mode', '{"mode":"staging"}', 400],
  ['GET', '/__sandbox/clock', undefined, 200],
  ['POST', '/__sandbox/clock', '{"advanceMs":1000}', 200],
  ['POST', '/__sandbox/clock', '{"now":"2030-12-05T00:00:00Z"}', 200],
  ['POST', '/__sandbox/clock', '{"now":"yesterday"}', 400],
  ['GET', '/__sandbox/keys', undefined, 200],
  ['POST', '/__sandbox/keys', '{"plan":"pro"}', 201],
  ['POST', '/__sandbox/keys', '{"plan":"gold"}', 400],
  ['POST', '/__sandbox/keys', '{"plan":"enterprise","perMinute":5,"key":"my-key"}', 201],
  ['DELETE', '/__sandbox/keys/my-key', undefined, 204],
  ['DELETE', '/__sandbox/keys/my-key', undefined, 404],
  ['GET', '/__sandbox/requests', undefined, 200],
  ['GET', '/__sandbox/requests?method=GET&path=/v1/pets&status=200', undefined, 200],
  ['GET', '/__sandbox/requests?mehtod=GET', undefined, 400],
  ['POST', '/__sandbox/requests/expect', '{"method":"GET","path":"/v1/pets","times":1}', 200],
  ['POST', '/__sandbox/requests/expect', '{"method":"POST","body":{"name":"Rex"}}', 409],
  ['POST', '/__sandbox/requests/expect', '{"mehtod":"GET"}', 400],
  ['GET', '/__sandbox/report', undefined, 200],
  ['GET', '/__sandbox/coverage', undefined, 200],
  ['DELETE', '/__sandbox/requests', undefined, 204],
  ['POST', '/__sandbox/reset', undefined, 204],
  ['POST', '/__sandbox/reset?sessions=all', undefined, 204],
  ['POST', '/__sandbox/reset?sessions=some', undefined, 400],
  ['PATCH', '/__sandbox/clock', undefined, 405],
  ['GET', '/__sandbox/no-such-route', undefined, 404],
  ['POST', '/__sandbox/clock', '{"realTime":true}', 200],
  ['GET', '/__sandbox/quotas', undefined, 200],
  ['GET', '/__sandbox/pets?status=sold&limit=3&after=2', undefined, 200],
  ['GET', '/__sandbox/pets?limit=0', undefined, 400],
  ['GET', '/__sandbox/assets/no-such-file.js', undefined, 404],
  ['GET', '/__sandbox/docs/assets/no-such-file.js', undefined, 404],
  ['POST', '/__sandbox/docs', undefined, 405],
  ['DELETE', '/__sandbox/keys/by-ref/0123456789abcdef', undefined, 404],
  ['POST', '/__sandbox/quotas', undefined, 405],
]

describe('the control API of the standalone server', () => {
  const app = createSandboxServer()
  let origin = ''
  beforeAll(async () => {
    origin = (await app.listen(0, '127.0.0.1')).url
    // One API request, so that the journal has an entry to describe.
    await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer sandbox-free' } })
  })
  afterAll(() => app.close())

  // In order: the key created above is revoked, then missing.
  it.each(EXCHANGES)('answers %s %s as the OpenAPI document says', async (...exchange) => {
    const [method, path, body, status, headers] = exchange
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: headers ?? (body === undefined ? {} : JSON_BODY),
      body: body ?? null,
    })
    const response = {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: await res.text(),
    }
    expect(response.status, response.body.slice(0, 300)).toBe(status)
    expect(checkResponseAgainstOpenApi({ request: { method, path }, response })).toEqual([])
  })
})
