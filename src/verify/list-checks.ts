import { PET_STATUSES } from '../contract/pet.js'
import { countOf } from './count-of.js'
import type { Observed } from './probe-runner.js'
import { recordGap } from './record-gap.js'
import { describeAnswer, probe, recordCheck, sight, type VerifyContext } from './verify-context.js'

interface ListedPet {
  id: unknown
  status: unknown
}

/** The pets of a 200 list answer, or undefined when it is not a JSON array. */
export const petsOf = (answer: Observed | undefined): ListedPet[] | undefined =>
  answer?.status === 200 && Array.isArray(answer.json)
    ? (answer.json as unknown[]).filter((p): p is ListedPet => typeof p === 'object' && p !== null)
    : undefined

const list = (ctx: VerifyContext, check: string, query: string) =>
  probe(ctx, check, 'listPets', { method: 'GET', path: `/pets${query}` })

/**
 * The listPets checks: the key accepted, the default limit (20), limit=1 and
 * limit=100, the three status filters; and the gaps a list shows: paging,
 * the total-count header, out-of-range `limit` and unknown `status`.
 * Resolves false when the key was refused (the other checks need it).
 */
export const runListChecks = async (ctx: VerifyContext): Promise<boolean> => {
  const all = await list(ctx, 'spec.auth.valid-key', '?limit=100')
  if (all === undefined) return false
  recordCheck(ctx, 'spec.auth.valid-key', {
    pass: all.status === 200,
    observed: describeAnswer(all),
    expected: '200 with Pets',
    message:
      all.status === 200
        ? 'The key is accepted: GET /pets?limit=100 is answered 200.'
        : `GET /pets?limit=100 with the key is answered ${all.status}: check the key and the target URL.`,
  })
  if (all.status !== 200) return false
  const pets = petsOf(all) ?? []
  const count = pets.length
  const firstId = pets.find((p) => Number.isSafeInteger(p.id))?.id as number | undefined
  ctx.listed = { count, firstId, defaultCount: undefined }

  const plain = await list(ctx, 'spec.list.default-limit', '')
  const plainPets = petsOf(plain)
  if (plain !== undefined) {
    const expected = Math.min(20, count)
    ctx.listed.defaultCount = plainPets?.length
    recordCheck(ctx, 'spec.list.default-limit', {
      pass: plainPets?.length === expected,
      observed: plainPets === undefined ? describeAnswer(plain) : countOf(plainPets.length, 'pet'),
      expected: `${countOf(expected, 'pet')} (the default limit is 20; ${count} listed with limit=100)`,
      message:
        plainPets?.length === expected
          ? `GET /pets lists ${countOf(expected, 'pet')}.`
          : `GET /pets lists ${plainPets === undefined ? 'no Pets' : countOf(plainPets.length, 'pet')}, not ${expected}: the default limit is 20.`,
    })
  }

  const one = await list(ctx, 'spec.list.limit-bounds', '?limit=1')
  const onePets = petsOf(one)
  if (one !== undefined) {
    const ok = onePets?.length === Math.min(1, count) && count <= 100
    recordCheck(ctx, 'spec.list.limit-bounds', {
      pass: ok,
      observed: `limit=1: ${onePets === undefined ? describeAnswer(one) : countOf(onePets.length, 'pet')}; limit=100: ${countOf(count, 'pet')}`,
      expected: `limit=1: ${Math.min(1, count)} pet; limit=100: 200 with at most 100`,
      message: ok
        ? 'limit=1 and limit=100 are accepted and respected.'
        : 'limit=1 or limit=100 is not answered with at most that many pets.',
    })
    observePaging(ctx, one, count)
  }

  await runStatusFilterCheck(ctx)
  await observeLimitOutOfRange(ctx, count)
  await observeUnknownStatus(ctx, count)
  return true
}

const runStatusFilterCheck = async (ctx: VerifyContext): Promise<void> => {
  const seen: string[] = []
  const problems: string[] = []
  for (const status of PET_STATUSES) {
    const answer = await list(ctx, 'spec.list.status-filter', `?status=${status}`)
    if (answer === undefined) return
    const pets = petsOf(answer)
    if (pets === undefined) problems.push(`status=${status}: ${describeAnswer(answer)}`)
    else {
      const stray = pets.find((p) => p.status !== status)
      if (stray !== undefined)
        problems.push(`status=${status} listed pet ${String(stray.id)} (${String(stray.status)})`)
      seen.push(`${status}: ${pets.length}`)
    }
  }
  recordCheck(ctx, 'spec.list.status-filter', {
    pass: problems.length === 0,
    observed: problems.length === 0 ? seen.join(', ') : problems.join('; '),
    expected: 'each filter answered 200 with only pets of that status',
    message:
      problems.length === 0
        ? 'The three status filters list only pets of their status.'
        : `A status filter is not respected: ${problems[0]}.`,
  })
}

const NEXT = /<([^>]*)>\s*;[^,]*\brel="?next"?/i
const KNOWN_TOTALS = /^x-total-count$/

const canonicalHeader = (name: string): string =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-')

/** `gap.pagination` and `gap.totalCountHeader`, from the answer to limit=1. */
const observePaging = (ctx: VerifyContext, one: Observed, count: number): void => {
  if (one.status !== 200) return
  const next = NEXT.exec(one.headers.link ?? '')?.[1]
  if (next !== undefined) {
    let query: URLSearchParams | undefined
    try {
      query = new URL(next, 'http://verify.invalid/v1/pets').searchParams
    } catch {
      query = undefined
    }
    const kind = query?.has('cursor') ? 'cursor' : query?.has('offset') ? 'offset' : undefined
    recordGap(
      ctx,
      'pagination',
      kind ?? `other (next link ${next})`,
      kind !== undefined,
      kind === undefined
        ? `The next link pages with neither cursor nor offset: ${next}.`
        : `limit=1 links the next page with ${kind}.`,
    )
  } else if (count >= 2) {
    recordGap(
      ctx,
      'pagination',
      'none',
      true,
      `limit=1 of ${countOf(count, 'pet')} sends no next link.`,
    )
  } else {
    recordGap(
      ctx,
      'pagination',
      undefined,
      false,
      'Fewer than 2 pets exist: paging cannot be seen.',
    )
  }
  // Entries, not lookups: a target's header names are read as its own keys only (issue 24).
  const entries = Object.entries(one.headers)
  const found =
    entries.find(([name]) => KNOWN_TOTALS.test(name)) ??
    entries.find(([name, value]) => /total|count/i.test(name) && /^\s*[0-9]+\s*$/.test(value ?? ''))
  const total = found?.[0]
  recordGap(
    ctx,
    'totalCountHeader',
    total === undefined ? false : canonicalHeader(total),
    true,
    total === undefined
      ? 'No header carries a total count.'
      : `${canonicalHeader(total)}: ${found?.[1] ?? ''} carries the total count.`,
  )
}

/** `gap.limitOutOfRange`: limit=0, limit=101 and limit=abc. */
const observeLimitOutOfRange = async (ctx: VerifyContext, count: number): Promise<void> => {
  const cases = [
    ['0', Math.min(1, count)],
    ['101', Math.min(100, count)],
    ['abc', Math.min(20, count)],
  ] as const
  const outcomes: string[] = []
  let rejected = 0
  let clamped = 0
  for (const [value, clampCount] of cases) {
    const answer = await list(ctx, 'gap.limitOutOfRange', `?limit=${value}`)
    if (answer === undefined) return
    const pets = petsOf(answer)
    if (answer.status === 400) {
      rejected++
      sight(ctx, `GET /pets?limit=${value}`, 'invalid_parameter', 400, answer)
      outcomes.push(`limit=${value}: 400`)
    } else if (pets !== undefined) {
      if (pets.length === clampCount) clamped++
      outcomes.push(`limit=${value}: 200 with ${countOf(pets.length, 'pet')}`)
    } else outcomes.push(`limit=${value}: ${describeAnswer(answer)}`)
  }
  const kind = rejected === 3 ? 'reject' : clamped === 3 ? 'clamp' : undefined
  recordGap(
    ctx,
    'limitOutOfRange',
    kind ?? `other (${outcomes.join('; ')})`,
    kind !== undefined,
    `${outcomes.join('; ')}.`,
  )
}

/** `gap.unknownStatusFilter`: status=adopted. */
const observeUnknownStatus = async (ctx: VerifyContext, count: number): Promise<void> => {
  const answer = await list(ctx, 'gap.unknownStatusFilter', '?status=adopted')
  if (answer === undefined) return
  const pets = petsOf(answer)
  if (answer.status === 400) {
    sight(ctx, 'GET /pets?status=adopted', 'invalid_parameter', 400, answer)
    recordGap(ctx, 'unknownStatusFilter', 'reject', true, 'status=adopted is answered 400.')
  } else if (pets === undefined) {
    recordGap(
      ctx,
      'unknownStatusFilter',
      `other (${describeAnswer(answer)})`,
      false,
      `status=adopted is answered ${answer.status}.`,
    )
  } else if (count === 0) {
    recordGap(
      ctx,
      'unknownStatusFilter',
      undefined,
      false,
      'No pets exist: ignore and empty look alike.',
    )
  } else {
    const kind =
      pets.length === 0 ? 'empty' : pets.length === ctx.listed.defaultCount ? 'ignore' : undefined
    recordGap(
      ctx,
      'unknownStatusFilter',
      kind ?? `other (200 with ${countOf(pets.length, 'pet')})`,
      kind !== undefined,
      `status=adopted lists ${countOf(pets.length, 'pet')} (GET /pets lists ${String(ctx.listed.defaultCount)}).`,
    )
  }
}
