import { LIMITS } from '../contract/limits.js'
import { petJson } from '../db/pet-json.js'
import { ApiError } from '../http/api-error.js'
import { andThen } from '../http/awaitable.js'
import { invalidParameter } from '../http/errors.js'
import { parsePositiveInteger } from '../http/query.js'
import { defineOperation, type SandboxSettings } from './operation.js'

// The sunset date is a setting: its HTTP form is written once, not on every answer.
let lastDate: { ms: number; text: string } | undefined
const httpDate = (ms: number): string => {
  if (lastDate?.ms !== ms) lastDate = { ms, text: new Date(ms).toUTCString() }
  return lastDate.text
}

/** The answer of getPet from its removal date on (and in the `sunset` scenario). */
export const operationRemoved = (settings: SandboxSettings): ApiError =>
  new ApiError(
    'operation_removed',
    `GET ${settings.basePath}/pets/{petId} was removed on ${httpDate(settings.sunsetAt)}. Use GET ${settings.basePath}/pets with the status filter.`,
  )

/**
 * GET /pets/{petId} (getPet, deprecated). Every response of it, whatever its
 * status, carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and the
 * successor link.
 */
export const getPet = defineOperation({
  id: 'getPet',
  method: 'GET',
  path: '/pets/{petId}',
  headers: ({ url, settings }) => ({
    Deprecation: settings.deprecation,
    Sunset: httpDate(settings.sunsetAt),
    Link: `<${url.origin}${settings.basePath}/pets>; rel="successor-version"`,
  }),
  run({ params, store, now, settings }) {
    if (now >= settings.sunsetAt) throw operationRemoved(settings)
    const id = parsePositiveInteger(params.petId ?? '', LIMITS.maxId)
    if (id === undefined)
      throw invalidParameter('petId', `must be a decimal integer from 1 to ${LIMITS.maxId}`)
    // Synchronous in memory (no microtask, decision 0039); a shared store's pet later.
    return andThen(store.get(id), (pet) => {
      if (pet === undefined) throw new ApiError('pet_not_found', `No pet has the id ${id}.`)
      return { status: 200, headers: { 'Content-Type': 'application/json' }, body: petJson(pet) }
    })
  },
})
