/**
 * Every rule the response validator checks, by its stable id, with one line
 * saying what it asks of an answer. `verify` reports each as a check of the
 * same id (contract §16), the upstream mode lists broken ones as an answer's
 * `violations` (contract §17), and docs/verify.md is checked against this table.
 *
 * `spec.*` rules are what the spec and this contract state for every
 * deployment. `gap.*` rules apply only when the validator is given a fidelity
 * setting: they say the answer differs from the sandbox's setting for that gap.
 */
export const ANSWER_RULES = {
  'spec.responses.status':
    'The status is one the operation answers (an error status when no operation matched).',
  'spec.responses.json': 'Every answer but 204 and HEAD has a JSON body.',
  'spec.responses.content-type': 'A body is sent with Content-Type: application/json.',
  'spec.errors.body':
    'An error answer has the Error body: code (non-empty string), message, status (integer), optional details.',
  'spec.errors.status': "The Error body's status equals the HTTP status.",
  'spec.errors.allow': 'A 405 names the allowed methods in Allow.',
  'spec.auth.challenge': 'A 401 carries a Bearer WWW-Authenticate challenge.',
  'spec.rate-limit.headers':
    'Every answer carries X-RateLimit-Limit, -Remaining and -Reset as non-negative integers, Remaining at most Limit.',
  'spec.rate-limit.reset': 'X-RateLimit-Reset is a Unix timestamp in seconds.',
  'spec.rate-limit.retry-after': 'A 429 carries Retry-After (seconds or an HTTP date).',
  'spec.list.body': 'A 200 of listPets is a JSON array of Pets.',
  'spec.list.limit': 'A 200 of listPets has at most limit pets (default 20, never more than 100).',
  'spec.list.status-filter':
    'A 200 of listPets filtered by a PetStatus holds only pets of that status.',
  'spec.create.body': 'A 201 of createPet is the created Pet.',
  'spec.create.echo': 'The created Pet has the name, categoryId and status that were sent.',
  'spec.get.body': 'A 200 of getPet is a Pet.',
  'spec.get.id': 'A 200 of getPet is the pet that was asked for.',
  'spec.get.deprecation': 'getPet answers carry Deprecation (RFC 9745, @<unix seconds>).',
  'spec.get.sunset': 'getPet answers carry Sunset with the removal date (5 December 2030).',
  'spec.document.status':
    'An operation added by an OpenAPI document (--openapi) answers a status the document declares for it, or one the sandbox gives every added operation (400, 401, 404, 413, 429, 500, 503).',
  'spec.document.body':
    'A JSON body of an operation added by an OpenAPI document is valid against the schema the document declares for that status.',
  'gap.limitOutOfRange': 'An out-of-range limit is answered as the limitOutOfRange setting says.',
  'gap.unknownStatusFilter':
    'An unknown status filter is answered as the unknownStatusFilter setting says.',
  'gap.defaultStatus': 'A pet created without status gets the defaultStatus setting.',
  'gap.nameMaxLength': 'No pet is created with a name longer than the nameMaxLength setting.',
  'gap.unknownFields':
    'With unknownFields "reject", no pet is created from a body with unknown fields.',
  'gap.pagination': 'The next link pages as the pagination setting says (none: no next link).',
  'gap.totalCountHeader':
    'A 200 of listPets carries the totalCountHeader setting (false: no X-Total-Count).',
  'gap.errorCodes':
    'Error codes are this contract’s, renamed by the errorCodes setting, each with its status.',
  'gap.maxBodyBytes': 'Bodies up to the maxBodyBytes setting are read, larger ones answered 413.',
} as const

/** The id of one rule, e.g. `spec.errors.body`. */
export type AnswerRule = keyof typeof ANSWER_RULES

/** One broken rule: its stable id and what was wrong, in one sentence. */
export interface Violation {
  rule: AnswerRule
  message: string
}
