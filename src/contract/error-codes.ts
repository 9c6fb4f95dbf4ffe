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
} as const

export type ErrorCode = keyof typeof ERROR_CODES
export const isErrorCode = (value: string): value is ErrorCode => Object.hasOwn(ERROR_CODES, value)
