import v8 from 'node:v8'
import vm from 'node:vm'
import { beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../src/http/api-error.js'
import type { CompiledOperation } from '../../src/openapi/compile-openapi-operations.js'
import {
  createOpenApiOperations,
  type OpenApiOperations,
} from '../../src/openapi/create-openapi-operations.js'
import { resolveOptions } from '../../src/sandbox/resolve-options.js'

// A real document with several collections of big records: a slice of GitHub's (fixtures/real).
const GITHUB = 'test/openapi/fixtures/real/github-issues-gists.json'
const { settings } = resolveOptions({})
const encoder = new TextEncoder()

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void
const heapAfterGc = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const collectionOps = (api: OpenApiOperations) => {
  const lists = api.operations.filter((o) => o.role === 'list')
  const creates = api.operations.filter((o) => o.role === 'create')
  return { lists, creates }
}

/** Calls one operation as the pipeline would (path parameters filled with `params`). */
const call = (
  api: OpenApiOperations,
  op: CompiledOperation,
  session: string,
  input: { params?: Record<string, string>; body?: unknown } = {},
) => {
  const params = { ...input.params }
  for (const name of op.path.matchAll(/\{([^}]+)\}/g))
    params[name[1] as string] ??= name[1] === 'owner' || name[1] === 'repo' ? 'octo' : '1'
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? '1')
  const url = new URL(`https://api.example.test/v1${path}`)
  const body = input.body === undefined ? null : encoder.encode(JSON.stringify(input.body))
  try {
    const response = api.answer(op, {
      request: {
        method: op.method,
        url: url.href,
        headers: body === null ? {} : { 'content-type': 'application/json' },
        body,
      },
      url,
      params,
      settings,
      session,
    })
    if (response instanceof Promise) throw new Error('an in-memory answer was a promise')
    return {
      ...response,
      json: response.body === null ? undefined : JSON.parse(String(response.body)),
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const response = error.toResponse()
    return { ...response, json: JSON.parse(String(response.body)) }
  }
}

describe('memory a session costs with a big real document (issue 35, item 20)', () => {
  let api: OpenApiOperations
  beforeAll(async () => {
    api = await createOpenApiOperations({ source: GITHUB, basePath: '/v1', seed: 7 })
  })

  it('a session that reads every collection copies none of the seeded records', () => {
    const { lists } = collectionOps(api)
    expect(lists.length).toBeGreaterThanOrEqual(3)
    // What one copy of every collection's seeded records weighs, as JSON.
    const seededBytes = lists.reduce((n, op) => n + String(call(api, op, 'warm').body).length, 0)
    expect(seededBytes).toBeGreaterThan(20_000)
    const before = heapAfterGc()
    const sessions = 100
    for (let s = 0; s < sessions; s += 1) for (const op of lists) call(api, op, `reader-${s}`)
    const perSession = (heapAfterGc() - before) / sessions
    // A copy per session would cost more than the records' JSON; a reader keeps nothing.
    expect(perSession).toBeLessThan(seededBytes / 20)
  })

  it('a session that creates one record keeps that change, not every collection', () => {
    const { lists, creates } = collectionOps(api)
    const create = creates.find((op) => op.path.endsWith('/milestones'))
    if (create === undefined) throw new Error('milestones are not a collection')
    const seededBytes = lists.reduce((n, op) => n + String(call(api, op, 'warm').body).length, 0)
    const first = call(api, create, 'w-first', { body: { title: 'v1.0' } })
    expect(first.status).toBe(create.success.status)
    const recordBytes = String(first.body).length
    const before = heapAfterGc()
    const sessions = 100
    for (let s = 0; s < sessions; s += 1)
      call(api, create, `writer-${s}`, { body: { title: `v${s}` } })
    const perSession = (heapAfterGc() - before) / sessions
    expect(perSession).toBeLessThan(Math.max(recordBytes * 8, 16_384))
    expect(perSession).toBeLessThan(seededBytes / 5)
    // What a data file would write of a session: the one collection it changed.
    expect(Object.keys(api.snapshot('writer-0') ?? {})).toEqual([create.path])
    expect(api.snapshot('reader-never')).toBeUndefined()
  })

  it('changes stay in their session: seeded records are shared, never changed in place', () => {
    const milestones = api.operations.filter((o) => o.path.endsWith('/milestones'))
    const item = api.operations.filter((o) => o.path.endsWith('/milestones/{milestone_number}'))
    const list = milestones.find((o) => o.role === 'list')
    const fetch = item.find((o) => o.role === 'fetch')
    const update = item.find((o) => o.role === 'update')
    const remove = item.find((o) => o.role === 'delete')
    if (!list || !fetch || !update || !remove) throw new Error('milestones are not a collection')
    const seeded = call(api, list, 'default').json as Record<string, unknown>[]
    const id = String(seeded[0]?.id)
    const patched = call(api, update, 'alice', {
      params: { milestone_number: id },
      body: { title: 'Changed by alice' },
    })
    expect(patched.json.title).toBe('Changed by alice')
    expect(call(api, fetch, 'alice', { params: { milestone_number: id } }).json.title).toBe(
      'Changed by alice',
    )
    // Alice's list has her change at its place; everyone else's is the seed as it was.
    const alices = call(api, list, 'alice').json as Record<string, unknown>[]
    expect(alices.map((r) => r.number)).toEqual(seeded.map((r) => r.number))
    expect(alices[0]?.title).toBe('Changed by alice')
    expect(call(api, list, 'bob').json).toEqual(seeded)
    expect(call(api, remove, 'bob', { params: { milestone_number: id } }).status).toBeLessThan(300)
    expect(call(api, fetch, 'bob', { params: { milestone_number: id } }).status).toBe(404)
    expect(call(api, fetch, 'carol', { params: { milestone_number: id } }).json).toEqual(seeded[0])
    expect(call(api, list, 'default').json).toEqual(seeded)
    // A forgotten session starts from the seed again.
    api.forget('alice')
    expect(call(api, list, 'alice').json).toEqual(seeded)
  })
})
