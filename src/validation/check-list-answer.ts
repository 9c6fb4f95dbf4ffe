import type { FidelitySettings } from '../contract/fidelity.js'
import { LIMITS } from '../contract/limits.js'
import { PET_STATUSES } from '../contract/pet.js'
import { OWN_WORDS } from '../http/describe-issue.js'
import { clampInteger, parsePositiveInteger } from '../http/query.js'
import type { Violation } from './answer-rules.js'
import { type HeaderSource, readHeader } from './read-header.js'
import { AnswerPetsSchema, firstIssue } from './spec-schemas.js'

const STATUSES: ReadonlySet<string> = new Set(PET_STATUSES)
const NEXT_LINK = /<([^>]*)>\s*;[^,]*\brel="?next"?/i
const NON_NEGATIVE_INTEGER = /^(0|[1-9][0-9]{0,15})$/
const CLAMP = {
  min: LIMITS.listLimitMin,
  max: LIMITS.listLimitMax,
  fallback: LIMITS.listLimitDefault,
} as const

export interface ListAnswer {
  url: URL
  status: number
  headers: HeaderSource
  /** The parsed body of a 200 (undefined otherwise or when it was not JSON). */
  value: unknown
  fidelity: Partial<FidelitySettings>
}

const single = (query: URLSearchParams, name: string): string | undefined | null => {
  const values = query.getAll(name)
  return values.length > 1 ? null : values[0]
}

/**
 * listPets: the Pets shape, `limit` respected, the status filter respected,
 * and, given the fidelity settings, the gaps a list answer shows
 * (`limitOutOfRange`, `unknownStatusFilter`, `pagination`, `totalCountHeader`).
 */
export const checkListAnswer = (answer: ListAnswer, out: Violation[]): void => {
  const { url, status, fidelity } = answer
  const query = url.searchParams
  const limitText = single(query, 'limit')
  const statusText = single(query, 'status')
  if (limitText === null || statusText === null) return
  const limitValid =
    limitText === undefined || parsePositiveInteger(limitText, LIMITS.listLimitMax) !== undefined
  const statusValid = statusText === undefined || STATUSES.has(statusText)
  // A gap is read only from a request whose other parameters are fine (a 400 has one cause).
  const plain = !query.has('cursor') && !query.has('offset')
  if (plain && !limitValid && statusValid && fidelity.limitOutOfRange !== undefined) {
    const expected = fidelity.limitOutOfRange === 'reject' ? 400 : 200
    if ((status === 200 || status === 400) && status !== expected) {
      out.push({
        rule: 'gap.limitOutOfRange',
        message: `limit=${limitText} was answered ${status}; limitOutOfRange "${fidelity.limitOutOfRange}" answers ${expected}.`,
      })
    }
  }
  if (plain && !statusValid && limitValid && fidelity.unknownStatusFilter !== undefined) {
    const expected = fidelity.unknownStatusFilter === 'reject' ? 400 : 200
    if ((status === 200 || status === 400) && status !== expected) {
      out.push({
        rule: 'gap.unknownStatusFilter',
        message: `status=${statusText} was answered ${status}; unknownStatusFilter "${fidelity.unknownStatusFilter}" answers ${expected}.`,
      })
    }
  }
  if (status !== 200 || answer.value === undefined) return

  const parsed = AnswerPetsSchema.safeParse(answer.value, OWN_WORDS)
  if (!parsed.success) {
    out.push({
      rule: 'spec.list.body',
      message: `The list is not Pets: ${firstIssue(parsed.error, answer.value)}.`,
    })
    return
  }
  const pets = parsed.data
  const limit =
    limitText === undefined
      ? LIMITS.listLimitDefault
      : limitValid
        ? Number(limitText)
        : fidelity.limitOutOfRange === 'clamp'
          ? clampInteger(limitText, CLAMP)
          : LIMITS.listLimitMax
  if (pets.length > limit) {
    out.push({
      rule: 'spec.list.limit',
      message: `${pets.length} pets for ${limitText === undefined ? 'the default limit' : `limit=${limitText}`}, more than ${limit}.`,
    })
  }
  if (statusText !== undefined && statusValid) {
    const stray = pets.find((pet) => pet.status !== statusText)
    if (stray !== undefined) {
      out.push({
        rule: 'spec.list.status-filter',
        message: `status=${statusText} listed pet ${stray.id} with status ${JSON.stringify(stray.status)}.`,
      })
    }
  } else if (
    statusText !== undefined &&
    fidelity.unknownStatusFilter === 'empty' &&
    limitValid &&
    pets.length > 0
  ) {
    out.push({
      rule: 'gap.unknownStatusFilter',
      message: `status=${statusText} listed ${pets.length} pets; unknownStatusFilter "empty" lists none.`,
    })
  }
  if (fidelity.pagination !== undefined) checkNextLink(answer, fidelity.pagination, out)
  if (fidelity.totalCountHeader !== undefined)
    checkTotalCount(answer.headers, fidelity.totalCountHeader, pets.length, out)
}

const checkNextLink = (
  answer: ListAnswer,
  pagination: FidelitySettings['pagination'],
  out: Violation[],
): void => {
  const link = readHeader(answer.headers, 'link')
  const next = link === undefined ? undefined : NEXT_LINK.exec(link)?.[1]
  if (next === undefined) return
  if (pagination === 'none') {
    out.push({
      rule: 'gap.pagination',
      message: 'A next link was sent; pagination "none" sends none.',
    })
    return
  }
  let query: URLSearchParams
  try {
    query = new URL(next, answer.url).searchParams
  } catch {
    out.push({
      rule: 'gap.pagination',
      message: `The next link ${JSON.stringify(next)} is not a URL.`,
    })
    return
  }
  if (!query.has(pagination)) {
    out.push({
      rule: 'gap.pagination',
      message: `The next link has no "${pagination}" parameter; pagination "${pagination}" pages with it.`,
    })
  }
}

const checkTotalCount = (
  headers: HeaderSource,
  name: string | false,
  count: number,
  out: Violation[],
): void => {
  if (name === false) {
    if (readHeader(headers, 'x-total-count') !== undefined)
      out.push({
        rule: 'gap.totalCountHeader',
        message: 'X-Total-Count was sent; totalCountHeader is false.',
      })
    return
  }
  const value = readHeader(headers, name.toLowerCase())
  if (value === undefined) {
    out.push({ rule: 'gap.totalCountHeader', message: `A 200 of listPets lacks ${name}.` })
  } else if (!NON_NEGATIVE_INTEGER.test(value.trim()) || Number(value) < count) {
    out.push({
      rule: 'gap.totalCountHeader',
      message: `${name} is ${JSON.stringify(value)}: not a count of at least the ${count} pets listed.`,
    })
  }
}
