import { RequestExpectationError } from 'petstore-sandbox/matchers'
import { setupSandbox } from 'petstore-sandbox/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

// requests.find / requests.expect (issue 23): what matches, and what a failed
// expectation says (the nearest misses as a diff, snapshot-tested).
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterEach(() => sandbox.reset())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const KEY = { authorization: 'Bearer sandbox-free' }
const json = { ...KEY, 'content-type': 'application/json' }

/**
 * Four requests in a session of their own (its journal numbers from 1; the
 * default session's go on counting across resets); its controls.
 */
const traffic = async (session: string) => {
  const headers = { ...KEY, 'x-sandbox-session': session }
  const post = { ...json, 'x-sandbox-session': session }
  await fetch(`${API}/pets?limit=5&status=available`, { headers })
  await fetch(`${API}/pets`, {
    method: 'POST',
    headers: post,
    body: '{"name":"rex","categoryId":2}',
  })
  await fetch(`${API}/pets`, {
    method: 'POST',
    headers: post,
    body: JSON.stringify({ name: 'Mía 🐈', categoryId: 3, tags: ['a', 'b'] }),
  })
  await fetch(`${API}/pets/999999`, {
    headers: { authorization: 'Bearer sandbox-pro', 'x-sandbox-session': session },
  })
  return sandbox.session(session)
}

/** The error `expect` rejects with, for its message. */
const failureOf = async (promise: Promise<unknown>): Promise<RequestExpectationError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof RequestExpectationError))
    throw new Error(`expected a RequestExpectationError, got ${String(error)}`)
  return error
}

describe('requests.find', () => {
  it('matches method, path, :param patterns, RegExps, query and header subsets, bodies and statuses', async () => {
    const session = await traffic('find')
    const seqs = async (match: Parameters<typeof sandbox.requests.find>[0]) =>
      (await session.requests.find(match)).map((e) => e.seq)
    const all = [1, 2, 3, 4]
    expect(await seqs({})).toEqual(all)
    expect(await seqs({ method: 'post' })).toEqual(all.slice(1, 3))
    expect(await seqs({ method: ['GET', 'HEAD'] })).toEqual([all[0], all[3]])
    expect(await seqs({ path: '/v1/pets' })).toEqual(all.slice(0, 3))
    expect(await seqs({ path: '/v1/pets/:petId' })).toEqual([all[3]])
    expect(await seqs({ path: 'https://api.example.test/v1/pets/:id' })).toEqual([all[3]])
    expect(await seqs({ path: 'https://other.test/v1/pets/:id' })).toEqual([])
    expect(await seqs({ path: /^\/v1\/pets\/\d+$/ })).toEqual([all[3]])
    expect(await seqs({ query: { limit: 5 } })).toEqual([all[0]])
    expect(await seqs({ query: { limit: '5', status: /^avail/ } })).toEqual([all[0]])
    expect(await seqs({ query: { limit: '6' } })).toEqual([])
    expect(await seqs({ headers: { 'Content-Type': 'application/json' } })).toEqual(all.slice(1, 3))
    // The journal holds no key, yet a key matches the one that was sent.
    expect(await seqs({ headers: { authorization: 'Bearer sandbox-free' } })).toEqual(
      all.slice(0, 3),
    )
    expect(await seqs({ headers: { authorization: 'bearer sandbox-pro' } })).toEqual([all[3]])
    expect(await seqs({ headers: { authorization: 'Bearer sandbox-business' } })).toEqual([])
    expect(await seqs({ body: { name: 'Mía 🐈' } })).toEqual([all[2]])
    expect(await seqs({ body: { tags: ['a', 'b'] } })).toEqual([all[2]])
    expect(await seqs({ body: { tags: ['a'] } })).toEqual([])
    expect(await seqs({ body: { name: /^r/ } })).toEqual([all[1]])
    expect(await seqs({ status: 201 })).toEqual(all.slice(1, 3))
    expect(await seqs({ status: [404, 400] })).toEqual([all[3]])
    expect(await seqs({ operation: 'getPet', status: 404 })).toEqual([all[3]])
  })

  it('fails fast on a match that cannot be right', async () => {
    const find = sandbox.requests.find as (match: unknown) => Promise<unknown>
    await expect(find({ mehtod: 'GET' })).rejects.toThrow(
      'Failed to match requests: "mehtod" is not a field of a match; use method, path, query, headers, body, status, operation. Fix the match.',
    )
    await expect(find({ path: 'v1/pets' })).rejects.toThrow(/must start with "\/"/)
    await expect(find({ status: 99 })).rejects.toThrow(/status must be an HTTP status/)
    await expect(find({ status: '200' })).rejects.toThrow(/status must be an HTTP status/)
    await expect(find({ query: { limit: null } })).rejects.toThrow(/query.limit must be a string/)
    await expect(find({ method: [] })).rejects.toThrow(/method must be a method name/)
    await expect(find('GET /v1/pets')).rejects.toThrow(/the match must be an object/)
    await expect(find({ operation: 'deletePet' })).rejects.toThrow(/operation must be one of/)
  })
})

describe('requests.expect', () => {
  it('resolves the matching entries when the count is right', async () => {
    const session = await traffic('count')
    await expect(session.requests.expect({ method: 'POST' }, { times: 2 })).resolves.toHaveLength(2)
    await expect(session.requests.expect({ status: 404 })).resolves.toHaveLength(1)
    await expect(session.requests.expect({ status: 500 }, { times: 0 })).resolves.toEqual([])
  })

  it('shows the nearest misses as a diff, not a dump', async () => {
    const session = await traffic('diff')
    const error = await failureOf(
      session.requests.expect(
        { method: 'POST', path: '/v1/pets', body: { name: 'Rex', categoryId: 2 } },
        { times: 1 },
      ),
    )
    expect(error.message).toMatchInlineSnapshot(`
      "Expected 1 request matching method POST, path /v1/pets, body {"name":"Rex","categoryId":2}; received 0 (of 4 requests in session "diff").

      Nearest misses (- expected, + received):

        #2 POST /v1/pets → 201
          body.name
            - "Rex"
            + "rex"

        #3 POST /v1/pets → 201
          body.name
            - "Rex"
            + "Mía 🐈"
          body.categoryId
            - 2
            + 3

        #1 GET /v1/pets?limit=5&status=available → 200
          method
            - "POST"
            + "GET"
          body
            - {"name":"Rex","categoryId":2}
            + (absent)"
    `)
    expect(error.failure.misses.map((m) => m.seq)).toEqual([2, 3, 1])
  })

  it('lists the requests that matched when there are too many or too few', async () => {
    const session = await traffic('listed')
    const tooMany = await failureOf(session.requests.expect({ method: 'POST' }, { times: 1 }))
    expect(tooMany.message).toMatchInlineSnapshot(`
      "Expected 1 request matching method POST; received 2 (of 4 requests in session "listed").

      Matching requests:
        #2 POST /v1/pets → 201
        #3 POST /v1/pets → 201"
    `)
    const none = await failureOf(session.requests.expect({ status: 404 }, { times: 0 }))
    expect(none.message).toContain('Expected no requests matching status 404; received 1')
    const tooFew = await failureOf(
      session.requests.expect(
        { query: { limit: '5' }, headers: { 'x-trace': 'on' } },
        { times: 2 },
      ),
    )
    expect(tooFew.message).toMatchInlineSnapshot(`
      "Expected 2 requests matching query {"limit":"5"}, headers {"x-trace":"on"}; received 0 (of 4 requests in session "listed").

      Nearest misses (- expected, + received):

        #1 GET /v1/pets?limit=5&status=available → 200
          headers.x-trace
            - "on"
            + (absent)

        #4 GET /v1/pets/999999 → 404 pet_not_found
          query.limit
            - "5"
            + (absent)
          headers.x-trace
            - "on"
            + (absent)

        #3 POST /v1/pets → 201
          query.limit
            - "5"
            + (absent)
          headers.x-trace
            - "on"
            + (absent)"
    `)
  })

  it('says when no request reached the sandbox at all', async () => {
    const error = await failureOf(sandbox.requests.expect({ path: '/v1/pets/:petId' }))
    expect(error.message).toBe(
      'Expected at least one request matching path /v1/pets/:petId; the journal of session "default" is empty: no request reached the sandbox.',
    )
    expect(error.failure).toMatchObject({ total: 0, matched: [], misses: [] })
  })

  it('rejects a bad times like a bad match', async () => {
    await expect(sandbox.requests.expect({}, { times: -1 })).rejects.toThrow(
      'Failed to match requests: times must be a whole number from 0, got -1. Fix the call.',
    )
    await expect(sandbox.requests.expect({}, { times: 1.5 })).rejects.toThrow(TypeError)
  })

  it('asserts on one session without seeing the others', async () => {
    await fetch(`${API}/pets?__session=w1`, { headers: KEY })
    await expect(
      sandbox.session('w1').requests.expect({ path: '/v1/pets' }, { times: 1 }),
    ).resolves.toHaveLength(1)
    await expect(sandbox.requests.expect({ path: '/v1/pets' }, { times: 0 })).resolves.toEqual([])
  })
})
