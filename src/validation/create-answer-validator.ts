import type { FidelitySettings } from '../contract/fidelity.js'
import { isContractOperationId, type OperationId } from '../contract/operation-ids.js'
import { OWN_WORDS } from '../http/describe-issue.js'
import { HTTP_LAYER_STATUSES, OPERATION_STATUSES } from './allowed-statuses.js'
import type { Violation } from './answer-rules.js'
import { checkCreateAnswer } from './check-create-answer.js'
import { buildErrorCodeTable, checkErrorAnswer } from './check-error-answer.js'
import {
  checkChallengeHeaders,
  checkDeprecationHeaders,
  checkRateLimitHeaders,
} from './check-headers.js'
import { checkListAnswer } from './check-list-answer.js'
import { type HeaderSource, readHeader } from './read-header.js'
import { AnswerPetSchema, firstIssue } from './spec-schemas.js'

/** One answer of the API as it reached the client, with the request it answers. */
export interface RoutedAnswer {
  /** The operation the request was routed to; null when no API route matched (404, 405). */
  operation: OperationId | null
  /** The request's method, upper case. */
  method: string
  /** The request's absolute URL (its query and path parameters are read). */
  url: string | URL
  /** The request body of a POST, as sent. */
  requestBody?: string | Uint8Array | null | undefined
  status: number
  /** The answer's headers, names in any case. */
  headers: HeaderSource
  /** The answer's body text; null or '' for none. */
  body: string | null
}

export interface AnswerValidatorSettings {
  /**
   * The sandbox's fidelity settings (contract §16). Each one given turns on
   * its `gap.<setting>` rule: the answer must be what that setting answers.
   * Without them only the `spec.*` rules run (what every deployment owes).
   */
  fidelity?: Partial<FidelitySettings> | undefined
  /** getPet's removal date for `spec.get.sunset`, epoch ms (default the spec's 2030-12-05). */
  sunsetAt?: number | undefined
}

/** Checks one answer; returns its violations, empty when it keeps the contract. */
export type AnswerValidator = (answer: RoutedAnswer) => Violation[]

const SPEC_SUNSET_AT = Date.UTC(2030, 11, 5)
const JSON_CONTENT_TYPE = /^\s*application\/json\s*(;|$)/i

const preview = (body: string): string =>
  JSON.stringify(body.length > 60 ? `${body.slice(0, 60)}…` : body)

const statusAllowed = (answer: RoutedAnswer): boolean => {
  if (answer.method === 'OPTIONS' && answer.status === 204) return true
  if (answer.operation === null) return answer.status >= 400 && answer.status <= 599
  // An added operation's statuses are its own (decision 0042): whoever added it checks them.
  if (!isContractOperationId(answer.operation)) return true
  return (
    OPERATION_STATUSES[answer.operation].has(answer.status) ||
    HTTP_LAYER_STATUSES.has(answer.status)
  )
}

/** The parsed JSON body, or undefined when there is none to read (pushing why when one was owed). */
const readBody = (answer: RoutedAnswer, out: Violation[]): unknown => {
  const { status } = answer
  if (answer.method === 'HEAD' || status === 204 || status === 304) return undefined
  const body = answer.body ?? ''
  if (body === '') {
    out.push({ rule: 'spec.responses.json', message: `The ${status} answer has an empty body.` })
    return undefined
  }
  const contentType = readHeader(answer.headers, 'content-type')
  if (contentType === undefined || !JSON_CONTENT_TYPE.test(contentType)) {
    out.push({
      rule: 'spec.responses.content-type',
      message: `The ${status} answer is sent as ${contentType === undefined ? 'no Content-Type' : JSON.stringify(contentType)}, not application/json.`,
    })
  }
  try {
    return JSON.parse(body)
  } catch {
    out.push({
      rule: 'spec.responses.json',
      message: `The ${status} body is not JSON: ${preview(body)}.`,
    })
    return undefined
  }
}

const toUrl = (url: string | URL): URL | undefined => {
  if (typeof url !== 'string') return url
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

/**
 * The one response validator (contract §16, §17): checks an answer of the API
 * against the spec and this contract and lists each broken rule by its
 * stable id (`ANSWER_RULES`, the ids `verify` reports): the status allowed for
 * the operation, the Error body (`code`, `message`, `status` equal to the
 * HTTP status) sent as `application/json`, the Pet and Pets shapes (from the
 * contract's one schema), `X-RateLimit-*` on every answer, `Retry-After` on a
 * 429, `WWW-Authenticate` on a 401, `Allow` on a 405, `Deprecation` and
 * `Sunset` on getPet, `limit` and the status filter respected by a list, the
 * created Pet echoing what was sent; with fidelity settings, the `gap.*`
 * rules too. Runtime-free and pure. Build it once: the schemas are compiled
 * at load and the settings' tables here, so a call allocates little beyond
 * its result (and the parsed body). The upstream mode runs it on every
 * forwarded answer; this interface is stable.
 *
 * @example
 * const validate = createAnswerValidator({ fidelity: FIDELITY_DEFAULTS })
 * const violations = validate({
 *   operation: 'getPet',
 *   method: 'GET',
 *   url: 'https://api.example.test/v1/pets/7',
 *   status: 200,
 *   headers: response.headers,
 *   body: await response.text(),
 * })
 * // [] or e.g. [{ rule: 'spec.get.sunset', message: 'A 200 of getPet lacks Sunset.' }]
 */
export const createAnswerValidator = (settings: AnswerValidatorSettings = {}): AnswerValidator => {
  const fidelity = { ...settings.fidelity }
  const codes =
    fidelity.errorCodes === undefined ? undefined : buildErrorCodeTable(fidelity.errorCodes)
  const sunsetAt = settings.sunsetAt ?? SPEC_SUNSET_AT
  return (answer) => {
    const out: Violation[] = []
    const { status, headers, operation } = answer
    if (!statusAllowed(answer)) {
      out.push({
        rule: 'spec.responses.status',
        message:
          operation === null
            ? `A request no operation answers got ${status}; it is answered with an error status.`
            : `${operation} answered ${status}, a status it does not answer.`,
      })
    }
    checkRateLimitHeaders(status, headers, out)
    checkChallengeHeaders(status, headers, out)
    const value = readBody(answer, out)
    if (status >= 400 && value !== undefined) checkErrorAnswer(status, value, codes, out)
    if (operation === 'listPets') {
      const url = toUrl(answer.url)
      if (url !== undefined) checkListAnswer({ url, status, headers, value, fidelity }, out)
    } else if (operation === 'createPet') {
      checkCreateAnswer({ status, value, requestBody: answer.requestBody, fidelity }, out)
    } else if (operation === 'getPet') {
      checkDeprecationHeaders(status, headers, sunsetAt, out)
      if (status === 200 && value !== undefined) checkGetBody(answer, value, out)
    }
    return out
  }
}

const checkGetBody = (answer: RoutedAnswer, value: unknown, out: Violation[]): void => {
  const parsed = AnswerPetSchema.safeParse(value, OWN_WORDS)
  if (!parsed.success) {
    out.push({
      rule: 'spec.get.body',
      message: `The 200 body is not a Pet: ${firstIssue(parsed.error, value)}.`,
    })
    return
  }
  const path = toUrl(answer.url)?.pathname ?? ''
  const asked = path.slice(path.lastIndexOf('/') + 1)
  if (/^[0-9]+$/.test(asked) && Number(asked) !== parsed.data.id) {
    out.push({
      rule: 'spec.get.id',
      message: `GET …/pets/${asked} answered the pet ${parsed.data.id}.`,
    })
  }
}

const SPEC_ONLY = createAnswerValidator()

/**
 * Checks one answer against the spec's rules only (no fidelity settings).
 *
 * @example
 * validateAnswer({ operation: null, method: 'GET', url, status: 404, headers, body })
 */
export const validateAnswer = (answer: RoutedAnswer): Violation[] => SPEC_ONLY(answer)

export type { HeaderSource, Violation }
