import { LIMITS } from '../contract/limits.js'
import { PetStatusSchema } from '../contract/pet.js'
import { invalidParameter } from '../http/errors.js'
import { parsePositiveInteger, singleParam } from '../http/query.js'
import { decodeCursor, encodeCursor } from './cursor.js'
import { defineOperation } from './operation.js'
import { petsJson } from './pet-json.js'

/**
 * GET /pets (listPets): ascending ids, `limit`, `status` and an opaque
 * `cursor`; `Link: rel="next"` while more follow and `X-Total-Count`.
 */
export const listPets = defineOperation({
  id: 'listPets',
  method: 'GET',
  path: '/pets',
  async run({ url, store, settings }) {
    const query = url.searchParams
    const limitText = singleParam(query, 'limit')
    const statusText = singleParam(query, 'status')
    const cursorText = singleParam(query, 'cursor')

    let limit: number = LIMITS.listLimitDefault
    if (limitText !== undefined) {
      const parsed = parsePositiveInteger(limitText, LIMITS.listLimitMax)
      if (parsed === undefined) {
        throw invalidParameter(
          'limit',
          `must be an integer from ${LIMITS.listLimitMin} to ${LIMITS.listLimitMax}`,
        )
      }
      limit = parsed
    }
    let status: ReturnType<typeof PetStatusSchema.parse> | undefined
    if (statusText !== undefined) {
      const parsed = PetStatusSchema.safeParse(statusText)
      if (!parsed.success)
        throw invalidParameter('status', `must be one of ${PetStatusSchema.options.join(', ')}`)
      status = parsed.data
    }
    let afterId: number | undefined
    if (cursorText !== undefined) {
      afterId = decodeCursor(cursorText)
      if (afterId === undefined)
        throw invalidParameter('cursor', 'must be a cursor from a previous page’s next link')
    }

    let page = store.list({ status, afterId, limit })
    if (page instanceof Promise) page = await page
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Total-Count': String(page.total),
    }
    if (page.nextAfterId !== undefined) {
      // Only the API's own parameters: sandbox flags (__scenario, __session, …) never travel in links.
      const next = new URLSearchParams({ limit: String(limit) })
      if (status !== undefined) next.set('status', status)
      next.set('cursor', encodeCursor(page.nextAfterId))
      headers.Link = `<${url.origin}${settings.basePath}/pets?${next}>; rel="next"`
    }
    return { status: 200, headers, body: petsJson(page.pets) }
  },
})
