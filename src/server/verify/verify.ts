import { isValidKeyText } from '../../auth/parse-authorization.js'
import type { FidelitySettings } from '../../contract/fidelity.js'
import type { OpenApiSource } from '../../openapi/openapi-document.js'
import { resolveFidelity } from '../../sandbox/resolve-fidelity.js'
import { runVerify } from '../../verify/run-verify.js'
import type { DocumentOperation, VerifyReport } from '../../verify/verify-types.js'
import { createFetchTransport, DEFAULT_MAX_BODY_BYTES } from './create-fetch-transport.js'
import { loadVerifyDocument } from './load-verify-document.js'

/** Options of `verify`. */
export interface VerifyOptions {
  /** The deployment's base URL, ending with the version segment: `https://staging.example/v1`. */
  target: string
  /** An API key of the deployment (redacted in the report). */
  key: string
  /** Send POSTs: create at most 5 pets named `petstore-sandbox verify <time> #n` (default false). */
  allowWrites?: boolean
  /** The most requests to send, 1 to 10,000 (default 150). */
  maxRequests?: number
  /** How long one request may take, in ms, 100 to 300,000 (default 10,000). */
  timeoutMs?: number
  /** The most to wait for quota windows to reset, in all, in ms, 0 to 3,600,000 (default 65,000). */
  maxWaitMs?: number
  /** The largest answer body read, in bytes, 1,024 to 104,857,600 (default 1,048,576); a larger one fails its check. */
  maxBodyBytes?: number
  /** The sandbox's fidelity settings to compare with (default: the sandbox's defaults). */
  sandbox?: Partial<FidelitySettings>
  /**
   * An OpenAPI document (a YAML or JSON file path, or the object) whose
   * operations the target adds to the contract's (contract §20): each GET is
   * called and, with `allowWrites`, each write sent an invalid body; every
   * answer of them is checked against the document (`spec.document.*`).
   */
  openapi?: OpenApiSource
}

const fail = (message: string): never => {
  throw new TypeError(`Failed to verify: ${message}`)
}

const checkTarget = (target: unknown): string => {
  let url: URL | undefined
  try {
    url = typeof target === 'string' ? new URL(target) : undefined
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return fail('target must be an http(s) URL such as https://staging.example/v1.')
  const path = url.pathname.replace(/\/+$/, '')
  if (!/\/v1$/.test(path))
    return fail(
      `target must end with the version segment /v1 (got ${url.pathname}). Pass the API's base URL.`,
    )
  if (url.search !== '' || url.hash !== '')
    return fail('target must be the base URL alone, without a query or fragment.')
  return (target as string).replace(/\/+$/, '')
}

const checkNumber = (
  name: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined => {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    fail(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}.`)
  return value as number
}

/**
 * Checks a Pet Store deployment against the spec and puts what it does where
 * the spec is silent next to the sandbox's settings (contract §16), over real
 * HTTP. Safe by default: read-only unless `allowWrites`, at most
 * `maxRequests` requests, nothing more after a 429, secrets redacted in the
 * report. A request without an answer is a failed check, never a throw; only
 * bad options throw. `report.config` is what `--emit-config` writes.
 *
 * @example
 * import { verify } from 'petstore-sandbox/server'
 * const report = await verify({ target: 'https://staging.example/v1', key: process.env.STAGING_KEY })
 * if (!report.passed) console.log(report.checks.filter((c) => c.kind === 'spec' && !c.pass))
 */
export const verify = async (options: VerifyOptions): Promise<VerifyReport> => {
  if (typeof options !== 'object' || options === null)
    fail('pass { target, key }, e.g. verify({ target: "https://staging.example/v1", key }).')
  const target = checkTarget(options.target)
  if (typeof options.key !== 'string' || !isValidKeyText(options.key))
    fail('key must be an API key: 1 to 200 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750).')
  const maxRequests = checkNumber('maxRequests', options.maxRequests, 1, 10_000)
  const timeoutMs = checkNumber('timeoutMs', options.timeoutMs, 100, 300_000) ?? 10_000
  const maxWaitMs = checkNumber('maxWaitMs', options.maxWaitMs, 0, 3_600_000)
  const maxBodyBytes =
    checkNumber('maxBodyBytes', options.maxBodyBytes, 1_024, 104_857_600) ?? DEFAULT_MAX_BODY_BYTES
  let sandbox: FidelitySettings
  try {
    sandbox = resolveFidelity(options.sandbox ?? {})
  } catch (error) {
    sandbox = fail(
      `sandbox: ${error instanceof Error ? error.message.replace(/^Failed to create the sandbox: /, '') : String(error)}`,
    )
  }
  let document: DocumentOperation[] | undefined
  if (options.openapi !== undefined) {
    try {
      document = await loadVerifyDocument(options.openapi, new URL(target).pathname)
    } catch (error) {
      document = fail(`openapi: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return runVerify({
    document,
    transport: createFetchTransport({ baseUrl: target, timeoutMs, maxBodyBytes }),
    baseUrl: target,
    key: options.key,
    allowWrites: options.allowWrites === true,
    ...(maxRequests === undefined ? {} : { maxRequests }),
    ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
    sandbox,
  })
}
