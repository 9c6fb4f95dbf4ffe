/**
 * Pagination cost across 100,000 pets: the first page, a cursor into the
 * middle, the last page, each with and without a status filter, measured on
 * the store (`PetStore#list`) and through the whole core (`sandbox.handle`).
 * A page must cost O(log n + limit): every ratio to the first page should be
 * near 1. The @msw/data `findMany` rows show what a scan would cost instead.
 * See docs/decisions/0001-collection-with-indexes.md.
 */
import type { PetStatus } from '../src/contract/pet.js'
import { PetStore } from '../src/db/pet-store.js'
import { createSandbox } from '../src/handlers/create-sandbox.js'
import type { SandboxRequest } from '../src/http/types.js'
import { encodeCursor } from '../src/operations/cursor.js'

const PETS = 100_000
const LIMIT = 20
const ROUNDS = 9

interface Case {
  name: string
  /** One operation; returns something so the work is not optimised away. */
  op: () => unknown
  iterations: number
}

/** Nanoseconds per operation of one timed round. */
const time = async ({ op, iterations }: Case): Promise<number> => {
  let sink = 0
  const start = performance.now()
  for (let i = 0; i < iterations; i++) {
    const result = op()
    sink += result instanceof Promise ? ((await result) === null ? 0 : 1) : 1
  }
  const elapsed = performance.now() - start
  if (sink !== iterations)
    throw new Error('Failed to run the benchmark: an operation returned null.')
  return (elapsed * 1e6) / iterations
}

/**
 * Median ns/op of each case. Rounds are interleaved across the cases of a
 * group, after a warm-up round, so noise from the shared machine (GC, other
 * processes) falls on every case alike.
 */
const measureGroup = async (cases: Case[]): Promise<number[]> => {
  for (const c of cases) await time(c)
  const samples: number[][] = cases.map(() => [])
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, c] of cases.entries()) samples[i]?.push(await time(c))
  }
  return samples.map((times) => times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number)
}

/** Measures each group and prints µs per page with the ratio to the group's first page. */
const report = async (groups: { title: string; cases: Case[] }[]): Promise<void> => {
  const rows: Record<string, string>[] = []
  for (const group of groups) {
    const results = await measureGroup(group.cases)
    const baseline = results[0] as number
    for (const [i, c] of group.cases.entries()) {
      const ns = results[i] as number
      rows.push({
        path: group.title,
        page: c.name,
        'µs/page': (ns / 1000).toFixed(2),
        'vs first page': `${(ns / baseline).toFixed(2)}×`,
      })
    }
  }
  console.table(rows)
}

/** The id the page before `position` ends at, for a filter (undefined: the first page). */
const afterIdAt = (store: PetStore, status: PetStatus | undefined, position: number) => {
  if (position === 0) return undefined
  return store.list({ status, afterId: undefined, limit: position }).pets.at(-1)?.id
}

export async function run(): Promise<void> {
  const seededAt = performance.now()
  const store = await PetStore.seeded({ count: PETS })
  const sandbox = createSandbox({
    pets: PETS,
    keys: { 'bench-key': { plan: 'enterprise', perMinute: 1e9, perDay: 1e9 } },
    journalSize: 0,
  })
  await sandbox.ready
  console.log(
    `Seeded ${PETS.toLocaleString('en')} pets twice in ${((performance.now() - seededAt) / 1000).toFixed(1)} s; pages of ${LIMIT}.`,
  )

  const positions = (status: PetStatus | undefined) => {
    const total = store.list({ status, limit: 1 }).total
    return [
      ['first page', 0],
      ['middle (cursor)', Math.floor(total / 2)],
      ['last page (cursor)', total - LIMIT],
    ] as const
  }

  const storeCases = (status: PetStatus | undefined): Case[] =>
    positions(status).map(([name, position]) => {
      const afterId = afterIdAt(store, status, position)
      return { name, iterations: 50_000, op: () => store.list({ status, afterId, limit: LIMIT }) }
    })

  // What paging costs without the indexes: @msw/data scans from the start.
  const scanCases: Case[] = positions(undefined).map(([name, position]) => {
    const afterId = afterIdAt(store, undefined, position) ?? 0
    return {
      name,
      iterations: 20,
      op: () =>
        store.collection.findMany((q) => q.where({ id: (id: number) => id > afterId }), {
          take: LIMIT + 1,
        }),
    }
  })

  const request = (query: string): SandboxRequest => ({
    method: 'GET',
    url: `http://127.0.0.1:4010/v1/pets?${query}`,
    headers: { authorization: 'Bearer bench-key' },
    body: null,
  })
  const handleCases = (status: PetStatus | undefined): Case[] =>
    positions(status).map(([name, position]) => {
      const afterId = afterIdAt(store, status, position)
      const query = new URLSearchParams({ limit: String(LIMIT) })
      if (status !== undefined) query.set('status', status)
      if (afterId !== undefined) query.set('cursor', encodeCursor(afterId))
      const req = request(query.toString())
      return { name, iterations: 3_000, op: () => sandbox.handle(req) }
    })

  await report([
    { title: 'store.list', cases: storeCases(undefined) },
    { title: 'store.list status=sold', cases: storeCases('sold') },
    { title: 'sandbox.handle', cases: handleCases(undefined) },
    { title: 'sandbox.handle status=sold', cases: handleCases('sold') },
    { title: 'findMany scan (no index)', cases: scanCases },
  ])
}
