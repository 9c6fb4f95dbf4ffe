import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'

// Issue 31 item 6: a deeply nested body (journaled, or in an expectation) never
// makes the body comparison overflow the stack: iterative comparison, a bounded
// display, and a clear 400 for an expectation deeper than the documented bound.
const app = createSandboxServer({ onError: () => {} })
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterAll(() => app.close())
beforeEach(() => app.sandbox.reset())

const nested = (depth: number, inner = '1'): string =>
  `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
const expect_ = async (body: string) => {
  const response = await fetch(`${origin}/__sandbox/requests/expect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('deeply nested bodies and request expectations', () => {
  it('compares expectations against a journaled 4,000-deep keyless POST without a 500', async () => {
    const answer = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nested(4_000),
    })
    expect(answer.status).toBe(401)
    await answer.arrayBuffer()
    const miss = await expect_('{"method":"POST","body":{"name":"Rex"}}')
    expect(miss.status).toBe(409)
    expect(miss.body.code).toBe('expectation_not_met')
    const arrayMiss = await expect_(`{"method":"POST","body":${nested(3, '2')}}`)
    expect(arrayMiss.status).toBe(409)
    // An expectation as deep as the bound is compared that deep (an array there, not an object).
    const deep = await expect_(`{"method":"POST","body":${nested(999, '{"a":1}')}}`)
    expect(deep.status).toBe(409)
    expect(String(deep.body.message)).toContain('…')
    expect((await expect_(`{"method":"POST","status":401}`)).status).toBe(200)
  })

  it('matches a deep expectation within the bound element by element', async () => {
    await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-free' },
      body: nested(900, '{"name":"Rex","x":[1,2]}'),
    })
    expect((await expect_(`{"body":${nested(900, '{"x":[1,2]}')}}`)).status).toBe(200)
    const miss = await expect_(`{"body":${nested(900, '{"x":[1,3]}')}}`)
    expect(miss.status).toBe(409)
    expect(JSON.stringify(miss.body.details)).toContain('.x[1]')
  })

  it('refuses a 10,000-deep expectation body with 400 naming the bound, never a 500', async () => {
    const refused = await expect_(`{"method":"POST","body":${nested(10_000)}}`)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'validation_failed', status: 400 })
    expect(String(refused.body.message)).toContain('deeper than 1,000 levels')
    // The same bound for the journal's filter, as 400 invalid_parameter.
    const filter = await fetch(
      `${origin}/__sandbox/requests?body=${encodeURIComponent(nested(1_001))}`,
    )
    expect(filter.status).toBe(400)
    expect(((await filter.json()) as { code: string }).code).toBe('invalid_parameter')
  })
})
