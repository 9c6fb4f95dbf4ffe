import { createNewPetSchema } from '../contract/pet.js'
import { JOURNAL_BUDGET_CEILINGS } from '../journal/journal-budget.js'
import type { SandboxSettings } from '../operations/operation.js'
import { resolveRateLimitOptions } from '../rate-limit/rate-limit-options.js'
import { checkOptionNames } from './check-option-names.js'
import { resolveFidelity } from './resolve-fidelity.js'
import {
  DEFAULT_BASE_PATH,
  DEFAULT_DEPRECATED_AT,
  DEFAULT_SUNSET_AT,
  SANDBOX_OPTION_NAMES,
  type SandboxOptions,
} from './sandbox-options.js'

export interface ResolvedBase {
  origin: string | undefined
  settings: SandboxSettings
}

const toMs = (name: string, value: Date | string): number => {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value)
  if (!Number.isFinite(ms))
    throw new TypeError(
      `Failed to create the sandbox: ${name} "${String(value)}" is not a date. Pass a Date or an ISO 8601 string.`,
    )
  return ms
}

const checkCount = (name: string, value: number | undefined, max: number): void => {
  if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > max)) {
    throw new TypeError(
      `Failed to create the sandbox: ${name} must be a whole number from 0 to ${max}, got ${String(value)}.`,
    )
  }
}

/** Checks the options that are not checked where they are used, and derives the operation settings. */
export const resolveOptions = (options: SandboxOptions<string>): ResolvedBase => {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `Failed to create the sandbox: options must be an object, got ${options === null ? 'null' : typeof options}.`,
    )
  }
  checkOptionNames(options, SANDBOX_OPTION_NAMES, 'create the sandbox')
  checkCount('pets', options.pets, 1_000_000)
  checkCount('maxSessions', options.maxSessions, 1_000_000)
  if (options.maxSessions !== undefined && options.maxSessions < 1) {
    throw new TypeError(
      'Failed to create the sandbox: maxSessions must be at least 1 (the default session).',
    )
  }
  if (
    options.sessionTtlMs !== undefined &&
    !(Number.isSafeInteger(options.sessionTtlMs) && options.sessionTtlMs >= 1_000)
  ) {
    throw new TypeError(
      `Failed to create the sandbox: sessionTtlMs must be a whole number of milliseconds >= 1000, got ${String(options.sessionTtlMs)}.`,
    )
  }
  checkCount('journalSize', options.journalSize, 100_000)
  checkCount('journalMaxEntries', options.journalMaxEntries, JOURNAL_BUDGET_CEILINGS.maxEntries)
  checkCount('journalMaxBytes', options.journalMaxBytes, JOURNAL_BUDGET_CEILINGS.maxBytes)
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
    throw new TypeError(
      `Failed to create the sandbox: seed must be an integer, got ${String(options.seed)}.`,
    )
  }
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_PATH
  let origin: string | undefined
  let basePath: string
  if (baseUrl.startsWith('/')) {
    basePath = baseUrl
  } else {
    let url: URL
    try {
      url = new URL(baseUrl)
    } catch {
      throw new TypeError(
        `Failed to create the sandbox: baseUrl "${baseUrl}" is neither a path ("/v1") nor an absolute URL ("https://api.example.test/v1").`,
      )
    }
    origin = url.origin
    basePath = url.pathname
  }
  basePath = basePath.replace(/\/+$/, '')
  if (basePath === '' || !/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
    throw new TypeError(
      `Failed to create the sandbox: the base path "${basePath}" must be a non-root path such as "/v1".`,
    )
  }
  const fidelity = resolveFidelity(options)
  const deprecatedAt = toMs('deprecatedAt', options.deprecatedAt ?? DEFAULT_DEPRECATED_AT)
  return {
    origin,
    settings: {
      basePath,
      deprecation: `@${Math.floor(deprecatedAt / 1000)}`,
      sunsetAt: toMs('sunsetAt', options.sunsetAt ?? DEFAULT_SUNSET_AT),
      banMs: resolveRateLimitOptions(options.rateLimit).banMs,
      fidelity,
      renamesErrorCodes: Object.keys(fidelity.errorCodes).length > 0,
      newPetSchema: createNewPetSchema(fidelity),
    },
  }
}
