import type { FidelitySettings } from '../contract/fidelity.js'
import { LIMITS } from '../contract/limits.js'
import { type PetStatus, PetStatusSchema } from '../contract/pet.js'
import { petsJson } from '../db/pet-json.js'
import type { PetPage } from '../db/pet-records.js'
import { andThen } from '../http/awaitable.js'
import { invalidParameter } from '../http/errors.js'
import { clampInteger, parsePositiveInteger, singleParam } from '../http/query.js'
import type { UrlFields } from '../http/request-url.js'
import type { SandboxResponse } from '../http/types.js'
import { decodeCursor, encodeCursor } from './cursor.js'
import { defineOperation, type SandboxSettings } from './operation.js'

const CLAMP = {
  min: LIMITS.listLimitMin,
  max: LIMITS.listLimitMax,
  fallback: LIMITS.listLimitDefault,
} as const
const OFFSET = /^(0|[1-9][0-9]{0,15})$/

/** `limit`: 1-100, default 20; out of range, 400 or clamped (`limitOutOfRange`). */
const readLimit = (query: URLSearchParams, fidelity: FidelitySettings): number => {
  const text = singleParam(query, 'limit')
  if (text === undefined) return LIMITS.listLimitDefault
  const parsed = parsePositiveInteger(text, LIMITS.listLimitMax)
  if (parsed !== undefined) return parsed
  if (fidelity.limitOutOfRange === 'clamp') return clampInteger(text, CLAMP)
  throw invalidParameter(
    'limit',
    `must be an integer from ${LIMITS.listLimitMin} to ${LIMITS.listLimitMax}`,
  )
}

/** `status`: a PetStatus; anything else 400, ignored or no pets (`unknownStatusFilter`). */
const readStatus = (
  query: URLSearchParams,
  fidelity: FidelitySettings,
): PetStatus | undefined | 'none' => {
  const text = singleParam(query, 'status')
  if (text === undefined) return undefined
  const parsed = PetStatusSchema.safeParse(text)
  if (parsed.success) return parsed.data
  if (fidelity.unknownStatusFilter === 'ignore') return undefined
  if (fidelity.unknownStatusFilter === 'empty') return 'none'
  throw invalidParameter('status', `must be one of ${PetStatusSchema.options.join(', ')}`)
}

/** Where the page starts: after a `cursor`'s id, or `offset` pets in (`pagination`). */
const readPosition = (
  query: URLSearchParams,
  fidelity: FidelitySettings,
): { afterId?: number; offset?: number } => {
  if (fidelity.pagination === 'cursor') {
    const text = singleParam(query, 'cursor')
    if (text === undefined) return {}
    const afterId = decodeCursor(text)
    if (afterId === undefined)
      throw invalidParameter('cursor', 'must be a cursor from a previous page’s next link')
    return { afterId }
  }
  if (fidelity.pagination === 'offset') {
    const text = singleParam(query, 'offset')
    if (text === undefined) return {}
    if (!OFFSET.test(text) || Number(text) > LIMITS.maxId)
      throw invalidParameter('offset', `must be a whole number from 0 to ${LIMITS.maxId}`)
    return { offset: Number(text) }
  }
  return {}
}

const NO_PETS: PetPage = { pets: [], total: 0, nextAfterId: undefined }

/** The answer of a page, by the origin its Link names (a page object is its store's, and never changes). */
const answered = new WeakMap<PetPage, { origin: string; answer: SandboxResponse }>()

/** The 200 of a page: the body, the total-count header and the next link (frozen: it is shared). */
const answerPage = (
  page: PetPage,
  input: {
    url: UrlFields
    settings: SandboxSettings
    limit: number
    status: PetStatus | 'none' | undefined
    position: { offset?: number | undefined }
  },
): SandboxResponse => {
  const { url, settings, limit, status, position } = input
  const { fidelity } = settings
  // A computed key in a literal is an own property, whatever the configured name (issue 24).
  const headers: Record<string, string> =
    fidelity.totalCountHeader === false
      ? { 'Content-Type': 'application/json' }
      : { 'Content-Type': 'application/json', [fidelity.totalCountHeader]: String(page.total) }
  if (page.nextAfterId !== undefined && fidelity.pagination !== 'none') {
    // Only the API's own parameters: sandbox flags (__scenario, __session, …) never travel in
    // links. Every value is URL-safe as it is (digits, a status word, base64url): no encoding.
    let next = `limit=${limit}`
    if (status !== undefined && status !== 'none') next += `&status=${status}`
    next +=
      fidelity.pagination === 'offset'
        ? `&offset=${(position.offset ?? 0) + page.pets.length}`
        : `&cursor=${encodeCursor(page.nextAfterId)}`
    headers.Link = `<${url.origin}${settings.basePath}/pets?${next}>; rel="next"`
  }
  return Object.freeze({ status: 200, headers: Object.freeze(headers), body: petsJson(page.pets) })
}

/**
 * GET /pets (listPets): ascending ids, `limit`, `status` and paging (an
 * opaque `cursor` by default); `Link: rel="next"` while more follow and
 * `X-Total-Count`. The fidelity settings (contract §16) choose how an
 * out-of-range `limit` and an unknown `status` are answered, the paging
 * (`cursor`, `offset`, `none`) and the total-count header.
 */
export const listPets = defineOperation({
  id: 'listPets',
  method: 'GET',
  path: '/pets',
  run({ url, store, settings }) {
    const { fidelity } = settings
    const query = url.searchParams
    const limit = readLimit(query, fidelity)
    const status = readStatus(query, fidelity)
    const position = readPosition(query, fidelity)
    if (status === 'none') return answerPage(NO_PETS, { url, settings, limit, status, position })
    // Synchronous in memory (no microtask, decision 0039); a shared store's page later.
    return andThen(
      store.list({ status, limit, afterId: position.afterId, offset: position.offset }),
      (page) => {
        // A store answers a repeated query with the same page: its answer is made once (decision 0021).
        const made = answered.get(page)
        if (made !== undefined && made.origin === url.origin) return made.answer
        const answer = answerPage(page, { url, settings, limit, status, position })
        answered.set(page, { origin: url.origin, answer })
        return answer
      },
    )
  },
})
