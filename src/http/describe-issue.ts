/**
 * zod's wording ("Invalid input: expected string, received number", "Too
 * small: expected number to be >=1", "Unrecognized key") never reaches a
 * client: a schema parsed with `OWN_WORDS` marks every issue whose message the
 * schema did not write itself, and `describeIssue` words it in the project's
 * voice: the value's fault, what was given, what is allowed.
 */

/** The message zod gives an issue a schema has no words for, under `OWN_WORDS`. */
const UNWORDED = '\u0000unworded'

/**
 * The parse parameters that mark issues without a message of the schema's
 * own (zod's per-parse error map; a schema's own `error` still wins).
 *
 * @example
 * describeIssue(schema.safeParse(value, OWN_WORDS).error.issues[0], { input: value })
 */
export const OWN_WORDS = { error: () => UNWORDED }

/** One problem zod found (zod and zod/mini issues both fit). */
export interface Issue {
  code?: string
  path: PropertyKey[]
  message: string
  expected?: unknown
  values?: readonly unknown[]
  keys?: readonly string[]
  minimum?: unknown
  maximum?: unknown
  inclusive?: boolean
  origin?: unknown
  format?: unknown
  divisor?: unknown
  errors?: readonly (readonly Issue[])[]
}

/** What `describeIssue` needs besides the issue. */
export interface DescribeContext {
  /** The whole value parsed, to say what was given. */
  input: unknown
  /** The fields the body may have, named when an unknown one is refused. */
  fields?: readonly string[] | undefined
  /** Add what was given to a field's message the schema wrote itself (`…, got the number 5`). */
  given?: boolean | undefined
}

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown => {
  let value = input
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined
    // Own keys only: a field named `__proto__` or `constructor` is a field like any other.
    const record = value as Record<PropertyKey, unknown>
    value = Object.hasOwn(record, key) ? record[key] : undefined
  }
  return value
}

const clip = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text)

/** What was given: `the number 5`, `the string "x"`, `an empty string`, `null`, `an array`. */
export const describeValue = (value: unknown): string => {
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array'
  switch (typeof value) {
    case 'string':
      return value === '' ? 'an empty string' : `the string ${clip(JSON.stringify(value))}`
    case 'number':
      return `the number ${String(value)}`
    case 'boolean':
      return String(value)
    case 'object':
      return 'an object'
    default:
      return 'nothing'
  }
}

const TYPE_NAMES = new Map([
  ['string', 'a string'],
  ['number', 'a number'],
  ['int', 'a whole number'],
  ['boolean', 'true or false'],
  ['object', 'an object'],
  ['array', 'an array'],
  ['null', 'null'],
  ['literal', 'a fixed value'],
])

const typeName = (expected: unknown): string =>
  TYPE_NAMES.get(String(expected)) ?? `a ${String(expected)}`

const sized = (bound: unknown, origin: unknown): string => {
  const count = Number(bound)
  if (origin === 'string') return `${String(bound)} character${count === 1 ? '' : 's'}`
  if (origin === 'array' || origin === 'set')
    return `${String(bound)} item${count === 1 ? '' : 's'}`
  return String(bound)
}

const sizeOf = (value: unknown): string =>
  typeof value === 'string'
    ? value === ''
      ? 'an empty string'
      : `${[...value].length} characters`
    : Array.isArray(value)
      ? `${value.length} items`
      : describeValue(value)

const FORMATS = new Map([
  ['datetime', 'an ISO 8601 date-time such as 2030-01-01T00:00:00Z'],
  ['date', 'a date such as 2030-01-01'],
  ['email', 'an email address'],
  ['url', 'a URL'],
  ['uuid', 'a UUID'],
])

/** What an issue allows, for a union's branches: `a string`, `an array`. */
const allowed = (issue: Issue): string => {
  switch (issue.code) {
    case 'invalid_type':
      return typeName(issue.expected)
    case 'invalid_value':
      return `one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`
    default:
      return 'another value'
  }
}

/**
 * An issue as the details of an Error body say it, after the field's name:
 * `must be a string, got the number 5`, `is required (a string)`, `must be at
 * least 1, got the number -1`. An issue whose schema wrote its own message
 * keeps that message (with `given`, followed by what was given).
 *
 * @example
 * describeIssue({ code: 'invalid_type', expected: 'string', path: ['name'], message: '' }, { input: { name: 5 } })
 * // 'must be a string, got the number 5'
 */
export const describeIssue = (issue: Issue, context: DescribeContext): string => {
  const value = valueAt(context.input, issue.path)
  const got = `got ${describeValue(value)}`
  if (issue.message !== UNWORDED && issue.message !== '')
    return context.given === true &&
      issue.path.length > 0 &&
      value !== undefined &&
      !issue.message.includes(', got ')
      ? `${issue.message}, ${got}`
      : issue.message
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined
        ? `is required (${typeName(issue.expected)})`
        : `must be ${typeName(issue.expected)}, ${got}`
    case 'too_small':
      return `must ${issue.origin === 'string' || issue.origin === 'array' ? 'have' : 'be'} ${issue.inclusive === false ? 'more than' : 'at least'} ${sized(issue.minimum, issue.origin)}, got ${sizeOf(value)}`
    case 'too_big':
      return `must ${issue.origin === 'string' || issue.origin === 'array' ? 'have' : 'be'} ${issue.inclusive === false ? 'less than' : 'at most'} ${sized(issue.maximum, issue.origin)}, got ${sizeOf(value)}`
    case 'invalid_value': {
      const values = issue.values ?? []
      return values.length === 1
        ? `must be ${JSON.stringify(values[0])}, ${got}`
        : `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, ${got}`
    }
    case 'invalid_format':
      return `must be ${FORMATS.get(String(issue.format)) ?? `a valid ${String(issue.format)}`}, ${got}`
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}, ${got}`
    case 'invalid_union': {
      const first = (issue.errors ?? []).flatMap((e) => (e[0] === undefined ? [] : [e[0]]))
      // Literals (`1 | 2`): one list of the values allowed, not one phrase per branch.
      if (first.length > 0 && first.every((e) => e.code === 'invalid_value')) {
        const values = first.flatMap((e) => e.values ?? []).map((v) => JSON.stringify(v))
        return `must be ${values.length === 1 ? values[0] : `one of ${values.join(', ')}`}, ${got}`
      }
      const branches = [...new Set(first.map(allowed))]
      return branches.length === 0
        ? `is not valid, ${got}`
        : `must be ${branches.join(' or ')}, ${got}`
    }
    case 'unrecognized_keys':
      return context.fields === undefined || context.fields.length === 0
        ? 'is not a field of this body'
        : `is not a field of this body; its fields are ${context.fields.join(', ')}`
    default:
      return `is not valid, ${got}`
  }
}
