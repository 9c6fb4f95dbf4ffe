import { FIDELITY_SETTING_NAMES, type FidelitySettings } from '../contract/fidelity.js'
import { ANSWER_RULES, type AnswerRule } from '../validation/answer-rules.js'

/** A check `verify` can report: its kind, what it asks, whether it needs `--allow-writes`. */
export interface CheckInfo {
  kind: 'spec' | 'gap'
  title: string
  writes: boolean
}

/** The checks that send a request of their own and judge its answer. */
const PROBE_CHECKS = {
  'spec.auth.valid-key': 'GET /pets with the key is answered 200.',
  'spec.auth.missing-key': 'A request without Authorization is answered 401 with an Error.',
  'spec.auth.invalid-key': 'A request with an unknown key is answered 401 with an Error.',
  'spec.auth.malformed': 'An Authorization header not of the form "Bearer <key>" is answered 401.',
  'spec.list.default-limit': 'GET /pets without limit lists 20 pets (fewer only when fewer exist).',
  'spec.list.limit-bounds': 'limit=1 and limit=100 are accepted (200) and respected.',
  'spec.get.found': 'GET /pets/{id} of a listed pet is answered 200 with that pet.',
  'spec.get.not-found': 'GET /pets/{id} of an unknown id is answered 404 with an Error.',
  'spec.create.created': 'POST /pets with a valid NewPet is answered 201 with the Pet.',
  'spec.create.missing-fields':
    'POST /pets without name, without categoryId, and with {} is answered 400 (three requests).',
  'spec.create.invalid-values':
    'POST /pets with a field of the wrong type (name 42, categoryId "one" or 1.5, status 7) is answered 400 (four requests).',
  'spec.create.malformed-json': 'POST /pets with a body that is not JSON is answered 400.',
  'spec.create.content-type': 'POST /pets without Content-Type: application/json is answered 400.',
  'spec.document.reads':
    'With --openapi: each GET operation of the document is answered 2xx (404 for an id verify had to make up).',
  'spec.document.missing-fields':
    "With --openapi: each write operation's body without its first required field is answered 400.",
  'spec.document.invalid-values':
    "With --openapi: each write operation's body with that field of the wrong type is answered 400.",
} as const

const WRITES: ReadonlySet<string> = new Set([
  'spec.create.created',
  'spec.create.missing-fields',
  'spec.create.invalid-values',
  'spec.create.malformed-json',
  'spec.create.content-type',
  'spec.document.missing-fields',
  'spec.document.invalid-values',
  'spec.create.body',
  'spec.create.echo',
  'gap.defaultStatus',
  'gap.nameMaxLength',
  'gap.unknownFields',
  'gap.maxBodyBytes',
])

const GAP_TITLES: Record<keyof FidelitySettings, string> = {
  limitOutOfRange: 'How limit=0, limit=101 and limit=abc are answered: reject (400) or clamp.',
  unknownStatusFilter: 'How status=<not a PetStatus> is answered: reject, ignore or empty.',
  defaultStatus: 'The status of a pet created without one.',
  nameMaxLength: 'The longest name accepted, in code points.',
  unknownFields: 'Whether a NewPet with an unknown field is accepted (ignore) or refused (reject).',
  pagination: 'How the next page is linked: cursor, offset or none.',
  totalCountHeader: 'The header carrying the number of matching pets, or false.',
  errorCodes: 'The error codes answered, where they differ from this contract’s.',
  maxBodyBytes: 'The largest request body read (larger: 413).',
}

/**
 * Every check `verify` reports, by stable id: the probe checks, one check
 * per spec rule of the response validator (the same ids), and one gap check
 * per fidelity setting (`gap.<setting>`). docs/verify.md lists them (a test
 * keeps it so).
 */
export const VERIFY_CHECKS: Readonly<Record<string, CheckInfo>> = Object.fromEntries([
  ...Object.entries(PROBE_CHECKS).map(([id, title]) => [
    id,
    { kind: 'spec', title, writes: WRITES.has(id) },
  ]),
  ...(Object.entries(ANSWER_RULES) as [AnswerRule, string][])
    .filter(([id]) => id.startsWith('spec.'))
    .map(([id, title]) => [id, { kind: 'spec', title, writes: WRITES.has(id) }]),
  ...FIDELITY_SETTING_NAMES.map((name) => [
    `gap.${name}`,
    { kind: 'gap', title: GAP_TITLES[name], writes: WRITES.has(`gap.${name}`) },
  ]),
])
