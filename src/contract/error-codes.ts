import type { OperationId } from './operation-ids.js'

/**
 * Every `code` the sandbox answers with, and its HTTP status. This table is the
 * only place a code is tied to a status; the README's and the OpenAPI
 * document's lists are checked against it by a test.
 */
export const ERROR_CODES = {
  missing_api_key: 401,
  malformed_authorization: 401,
  invalid_api_key: 401,
  rate_limit_exceeded: 429,
  api_key_banned: 429,
  route_not_found: 404,
  method_not_allowed: 405,
  invalid_parameter: 400,
  invalid_content_type: 400,
  malformed_json: 400,
  validation_failed: 400,
  payload_too_large: 413,
  pet_not_found: 404,
  // A record of a collection added from an OpenAPI document (contract §20).
  not_found: 404,
  operation_removed: 410,
  unknown_scenario: 400,
  internal_error: 500,
  service_unavailable: 503,
  session_limit_reached: 503,
  id_space_exhausted: 507,
  // Upstream mode (contract §17): the sandbox in front of a real deployment, or replaying one.
  upstream_unavailable: 502,
  upstream_timeout: 504,
  upstream_contract_violation: 502,
  replay_miss: 404,
  // The standalone server, before a request reaches the API (contract §15).
  uri_too_long: 414,
  expectation_failed: 417,
  header_too_large: 431,
  not_implemented: 501,
  // Control API (standalone server and programmatic controls).
  forbidden: 403,
  unknown_plan: 400,
  key_not_found: 404,
  key_exists: 409,
  // POST /__sandbox/requests/expect: the journal does not hold the requests expected (issue 23).
  expectation_not_met: 409,
  // PUT /__sandbox/mode: a mode the sandbox was not started with (issue 19).
  mode_unavailable: 409,
  // The dashboard's event stream past the server's cap (issue 24).
  stream_limit_reached: 503,
  // Accounts (contract §22): the account API under /portal/api and the admin's account routes.
  email_taken: 409,
  invite_required: 403,
  invite_invalid: 403,
  invalid_credentials: 401,
  login_required: 401,
  csrf_failed: 403,
  too_many_keys: 409,
  account_not_found: 404,
  // An account's sandbox holds at most 10,000 pets (contract §22).
  store_full: 409,
} as const

export type ErrorCode = keyof typeof ERROR_CODES
export const isErrorCode = (value: string): value is ErrorCode => Object.hasOwn(ERROR_CODES, value)

/**
 * Where each code can be answered: on `every` operation of the API (in some
 * runtime or mode: the server's HTTP layer, upstream and replay modes,
 * scenarios), only on the operations listed, on a request that matched no
 * operation (`unrouted`), only on operations `added` beyond the contract's (from
 * an OpenAPI document), or by the `control` API. The OpenAPI document must
 * list each code under its status on each operation it covers (a test derives
 * that from this table and the scenarios); a new code does not compile until
 * it is placed here.
 */
export const ERROR_CODE_SCOPES = {
  missing_api_key: 'every',
  malformed_authorization: 'every',
  invalid_api_key: 'every',
  rate_limit_exceeded: 'every',
  api_key_banned: 'every',
  route_not_found: 'unrouted',
  method_not_allowed: 'every',
  invalid_parameter: 'every',
  invalid_content_type: ['createPet'],
  malformed_json: ['createPet'],
  validation_failed: ['createPet'],
  payload_too_large: 'every',
  pet_not_found: ['getPet'],
  // Only the operations added from an OpenAPI document (contract §20), never the contract's three.
  not_found: 'added',
  operation_removed: ['getPet'],
  unknown_scenario: 'every',
  internal_error: 'every',
  service_unavailable: 'every',
  session_limit_reached: 'every',
  id_space_exhausted: ['createPet'],
  upstream_unavailable: 'every',
  upstream_timeout: 'every',
  upstream_contract_violation: 'every',
  replay_miss: 'every',
  uri_too_long: 'every',
  expectation_failed: 'every',
  header_too_large: 'every',
  not_implemented: 'every',
  forbidden: 'control',
  unknown_plan: 'control',
  key_not_found: 'control',
  key_exists: 'control',
  expectation_not_met: 'control',
  mode_unavailable: 'control',
  stream_limit_reached: 'control',
  email_taken: 'control',
  invite_required: 'control',
  invite_invalid: 'control',
  invalid_credentials: 'control',
  login_required: 'control',
  csrf_failed: 'control',
  too_many_keys: 'control',
  account_not_found: 'control',
  store_full: ['createPet'],
} as const satisfies Record<
  ErrorCode,
  'every' | 'unrouted' | 'control' | 'added' | readonly OperationId[]
>
