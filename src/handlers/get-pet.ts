import { LIMITS } from '../contract/limits.js'
import { ApiError, jsonResponse } from '../core/api-error.js'
import type { Operation, OperationContext } from './operation.js'
import { invalidParameter, parsePositiveInteger } from './query.js'

const HTTP_DATE = (ms: number): string => new Date(ms).toUTCString()

/**
 * The headers every response of the deprecated getPet carries, whatever its
 * status: `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and the successor link.
 */
export const deprecationHeaders = ({
  url,
  settings,
}: Pick<OperationContext, 'url' | 'settings'>): Record<string, string> => ({
  Deprecation: settings.deprecation,
  Sunset: HTTP_DATE(settings.sunsetAt),
  Link: `<${url.origin}${settings.basePath}/pets>; rel="successor-version"`,
})

/** The answer of getPet from its removal date on (and in the `sunset` scenario). */
export const operationRemoved = (settings: OperationContext['settings']): ApiError =>
  new ApiError(
    'operation_removed',
    `GET ${settings.basePath}/pets/{petId} was removed on ${HTTP_DATE(settings.sunsetAt)}. Use GET ${settings.basePath}/pets with the status filter.`,
  )

/** GET /pets/{petId} (getPet, deprecated). */
export const getPet: Operation = ({ params, store, clock, settings }) => {
  if (clock.now() >= settings.sunsetAt) throw operationRemoved(settings)
  const id = parsePositiveInteger(params.petId ?? '', LIMITS.maxId)
  if (id === undefined)
    throw invalidParameter('petId', `must be a decimal integer from 1 to ${LIMITS.maxId}`)
  const pet = store.get(id)
  if (pet === undefined) throw new ApiError('pet_not_found', `No pet has the id ${id}.`)
  return jsonResponse(200, pet)
}
