import type { ErrorCode } from '../contract/error-codes.js'
import type { FidelitySettings } from '../contract/fidelity.js'
import type { OperationId } from '../contract/operation-ids.js'
import type { Observed, Probe, ProbeRunner } from './probe-runner.js'
import type { DocumentOperation, VerifyCheck } from './verify-types.js'

/** An error `verify` provoked, for the `errorCodes` gap: what this contract answers, what the target did. */
export interface CodeSighting {
  /** The request, in words: `GET /pets without Authorization`. */
  situation: string
  contractCode: ErrorCode
  status: number
  observed: Observed
}

/** What the checks of one run share. */
export interface VerifyContext {
  runner: ProbeRunner
  /** The sandbox's settings the gaps are compared with. */
  current: FidelitySettings
  allowWrites: boolean
  /** Marks the pets of this run: `petstore-sandbox verify <stamp> #n`. */
  stamp: string
  results: Map<string, VerifyCheck>
  /** Gap observations: the setting's value, or a description when it is none of the values. */
  gaps: Map<keyof FidelitySettings, { observed: unknown; emit: boolean; message: string }>
  sightings: CodeSighting[]
  created: { id: number; name: string }[]
  /** Set once the run may send no more POSTs (its 5 pets are created). */
  writesStopped: string | undefined
  /** The operations of the OpenAPI document given (`--openapi`), else undefined. */
  document: readonly DocumentOperation[] | undefined
  /** The pets listed with limit=100 (how many exist, up to 100), and one id to fetch. */
  listed: { count: number; firstId: number | undefined; defaultCount: number | undefined }
}

/** Records a spec check's result. */
export const recordCheck = (
  ctx: VerifyContext,
  id: string,
  result: Omit<VerifyCheck, 'id' | 'kind'>,
): void => {
  ctx.results.set(id, { id, kind: 'spec', ...result })
}

/** Sends a request with the key (or as `auth` says) for one check. */
export const probe = (
  ctx: VerifyContext,
  check: string,
  operation: OperationId | null,
  request: Omit<Probe, 'check' | 'operation' | 'auth'> & { auth?: Probe['auth'] },
): Promise<Observed | undefined> => ctx.runner.send({ check, operation, auth: 'key', ...request })

/** A short description of an answer for `observed`: `404 {"code":"pet_not_found",…}`. */
export const describeAnswer = (answer: Observed): string => {
  const body = answer.body.length > 120 ? `${answer.body.slice(0, 120)}…` : answer.body
  return `${answer.status}${body === '' ? '' : ` ${body}`}`
}

/** The `code` of an Error body, if the answer has one. */
export const errorCodeOf = (answer: Observed): string | undefined => {
  const json = answer.json
  return typeof json === 'object' &&
    json !== null &&
    'code' in json &&
    typeof json.code === 'string'
    ? json.code
    : undefined
}

/** Notes an error the run provoked, for the `errorCodes` gap. */
export const sight = (
  ctx: VerifyContext,
  situation: string,
  contractCode: ErrorCode,
  status: number,
  observed: Observed | undefined,
): void => {
  if (observed !== undefined) ctx.sightings.push({ situation, contractCode, status, observed })
}
