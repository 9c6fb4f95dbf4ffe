import { ERROR_CODES } from '../contract/error-codes.js'
import {
  FIDELITY_BOUNDS,
  FIDELITY_CHOICES,
  FIDELITY_DEFAULTS,
  type FidelitySettings,
} from '../contract/fidelity.js'
import { PET_STATUSES } from '../contract/pet.js'

const fail = (message: string): never => {
  throw new TypeError(`Failed to create the sandbox: ${message}`)
}

const show = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : String(value)

const oneOf = <T extends string>(name: string, value: unknown, choices: readonly T[]): T => {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T
  return fail(
    `${name} must be one of ${choices.map((c) => `"${c}"`).join(', ')}, got ${show(value)}.`,
  )
}

const wholeNumber = (name: string, value: unknown, bounds: { min: number; max: number }) => {
  if (Number.isInteger(value) && (value as number) >= bounds.min && (value as number) <= bounds.max)
    return value as number
  return fail(
    `${name} must be a whole number from ${bounds.min} to ${bounds.max}, got ${show(value)}.`,
  )
}

// RFC 9110 token: what a header name may be.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/
// Headers the sandbox sends for something else: a total count there would clash.
const TAKEN_HEADERS = new Set([
  'allow',
  'content-length',
  'content-type',
  'deprecation',
  'link',
  'location',
  'retry-after',
  'sunset',
  'www-authenticate',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
])
const CODE = /^[A-Za-z0-9_.:-]{1,100}$/

const totalCountHeader = (value: unknown): string | false => {
  if (value === false) return false
  if (typeof value !== 'string' || !HEADER_NAME.test(value))
    return fail(`totalCountHeader must be a header name or false, got ${show(value)}.`)
  if (TAKEN_HEADERS.has(value.toLowerCase()))
    return fail(`totalCountHeader "${value}" is a header the sandbox sends for something else.`)
  return value
}

const errorCodes = (value: unknown): FidelitySettings['errorCodes'] => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail(`errorCodes must be an object such as { "pet_not_found": "not_found" }.`)
  const codes = new Map<string, string>()
  for (const [from, to] of Object.entries(value)) {
    if (!Object.hasOwn(ERROR_CODES, from))
      fail(`errorCodes renames "${from}", which is not one of the sandbox's error codes.`)
    if (typeof to !== 'string' || !CODE.test(to))
      fail(
        `errorCodes.${from} must be a code of 1-100 characters of A-Z a-z 0-9 _ . : -, got ${show(to)}.`,
      )
    if (to !== from) codes.set(from, to as string)
  }
  return Object.fromEntries(codes)
}

/**
 * The fidelity settings of contract §16 from the sandbox's options, each
 * checked, today's behaviour for the ones not given.
 *
 * @example
 * resolveFidelity({ pagination: 'offset' }).limitOutOfRange // 'reject'
 */
export const resolveFidelity = (options: Partial<FidelitySettings>): FidelitySettings => {
  const d = FIDELITY_DEFAULTS
  const given = <K extends keyof FidelitySettings>(name: K) =>
    options[name] === undefined ? undefined : options[name]
  return {
    limitOutOfRange: oneOf(
      'limitOutOfRange',
      given('limitOutOfRange') ?? d.limitOutOfRange,
      FIDELITY_CHOICES.limitOutOfRange,
    ),
    unknownStatusFilter: oneOf(
      'unknownStatusFilter',
      given('unknownStatusFilter') ?? d.unknownStatusFilter,
      FIDELITY_CHOICES.unknownStatusFilter,
    ),
    defaultStatus: oneOf('defaultStatus', given('defaultStatus') ?? d.defaultStatus, PET_STATUSES),
    nameMaxLength: wholeNumber(
      'nameMaxLength',
      given('nameMaxLength') ?? d.nameMaxLength,
      FIDELITY_BOUNDS.nameMaxLength,
    ),
    unknownFields: oneOf(
      'unknownFields',
      given('unknownFields') ?? d.unknownFields,
      FIDELITY_CHOICES.unknownFields,
    ),
    pagination: oneOf(
      'pagination',
      given('pagination') ?? d.pagination,
      FIDELITY_CHOICES.pagination,
    ),
    totalCountHeader: totalCountHeader(given('totalCountHeader') ?? d.totalCountHeader),
    errorCodes: errorCodes(given('errorCodes') ?? d.errorCodes),
    maxBodyBytes: wholeNumber(
      'maxBodyBytes',
      given('maxBodyBytes') ?? d.maxBodyBytes,
      FIDELITY_BOUNDS.maxBodyBytes,
    ),
  }
}
