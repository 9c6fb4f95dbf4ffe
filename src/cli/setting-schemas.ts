import * as z from 'zod/mini'
import type * as core from 'zod/v4/core'
import { isValidKeyText } from '../auth/parse-authorization.js'
import { ERROR_CODES, type ErrorCode } from '../contract/error-codes.js'
import { FIDELITY_BOUNDS, FIDELITY_CHOICES } from '../contract/fidelity.js'
import { madeWhenRead } from '../contract/made-when-read.js'
import { ownRecord } from '../contract/own-record.js'
import { PET_STATUSES } from '../contract/pet.js'
import { PLAN_NAMES } from '../contract/plans.js'
import { useEnglishZodMessages } from '../contract/zod-messages.js'
import { JOURNAL_BUDGET_CEILINGS } from '../journal/journal-budget.js'
import type { TimelineSetting } from '../sandbox/resolve-sticky.js'
import { timelineProblems } from '../scenarios/timeline.js'

// zod/mini, not classic zod: the CLI bundle carries one zod build and no locale
// but English, so it starts sooner (issue 20). Every rule below gives its own
// message; the few issues that have none (an unknown field of a key's plan, a
// timeout that is not a number) keep zod's English words, as they read before.
useEnglishZodMessages()

// The rules of each setting, written once: the flags, the environment and the
// config file are all checked against these.

const wholeNumber = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .check(
      z.int({ error: 'must be a whole number' }),
      z.gte(min, { error: `must be from ${min} to ${max}` }),
      z.lte(max, { error: `must be from ${min} to ${max}` }),
    )

const text = () =>
  z
    .string({ error: 'must be a string' })
    .check(z.trim(), z.minLength(1, { error: 'must not be empty' }))

const limit = () =>
  z
    .number({ error: 'must be a number' })
    .check(
      z.int({ error: 'must be a whole number >= 1' }),
      z.gte(1, { error: 'must be a whole number >= 1' }),
    )

const planName = () => z.enum(PLAN_NAMES, { error: `must be one of ${PLAN_NAMES.join(', ')}` })

const keyName = () =>
  z.string().check(
    z.refine(isValidKeyText, {
      error: 'a key is 1 to 200 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)',
    }),
  )

/** A key's plan, or an enterprise plan with its own limits. */
const keyOption = () =>
  z.union(
    [
      planName(),
      z
        .strictObject({
          plan: planName(),
          perMinute: z.optional(limit()),
          perDay: z.optional(limit()),
          // Checked against the scenarios at start (the file's own ones are known only then).
          scenario: z.optional(
            z.string({ error: 'must be the name of a scenario' }).check(z.minLength(1)),
          ),
        })
        .check(
          z.refine(
            (key) => key.plan === 'enterprise' || (key.perMinute ?? key.perDay) === undefined,
            { error: 'only enterprise keys take perMinute and perDay' },
          ),
        ),
    ],
    {
      error: `must be a plan (${PLAN_NAMES.join(', ')}) or { "plan", "perMinute", "perDay", "scenario" }`,
    },
  )

const TIMELINE_RULE =
  'must be a list of phases [{ "scenario": NAME, "forMs": N }] or { "timeline": [...], "repeat": true }'

/** A start timeline: its phases' shapes here, their scenarios' names at start. */
const timelineSetting = () =>
  z.pipe(
    z.union(
      [
        z.array(z.unknown()),
        z.strictObject({
          timeline: z.array(z.unknown()),
          repeat: z.optional(z.boolean({ error: 'must be true or false' })),
        }),
      ],
      { error: TIMELINE_RULE },
    ),
    z.transform((value, ctx): TimelineSetting => {
      const setting = Array.isArray(value) ? { timeline: value } : value
      for (const problem of timelineProblems(setting.timeline, () => true))
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `${problem.field} ${problem.message}`,
        })
      return setting as TimelineSetting
    }),
  )

const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` })

const HEADER_RULE = 'must be a header name (such as X-Total-Count) or false'

const DURATION_UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const

/**
 * A duration as the CLI writes it: `90` (seconds), `90s`, `30m`, `2h` or
 * `1500ms`; a number is seconds. NaN when it is none of these.
 *
 * @example
 * parseDuration('30m') // 1_800_000
 */
export const parseDuration = (value: string | number): number => {
  if (typeof value === 'number') return Number.isFinite(value) ? value * 1_000 : Number.NaN
  const match = /^([0-9]{1,10})(ms|s|m|h)?$/.exec(value.trim())
  const unit = (match?.[2] ?? 's') as keyof typeof DURATION_UNITS
  return match === null ? Number.NaN : Number(match[1]) * DURATION_UNITS[unit]
}

const SIZE_UNITS = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 } as const

/**
 * A size as the CLI writes it: bytes (`1048576`), or with `KiB`, `MiB` or
 * `GiB` (`10MiB`, any case); a number is bytes. NaN when it is none of these.
 *
 * @example
 * parseSize('10MiB') // 10_485_760
 */
export const parseSize = (value: string | number): number => {
  if (typeof value === 'number') return value
  const match = /^([0-9]{1,12})\s*(b|kib|mib|gib)?$/i.exec(value.trim())
  const unit = (match?.[2]?.toLowerCase() ?? 'b') as keyof typeof SIZE_UNITS
  return match === null ? Number.NaN : Number(match[1]) * SIZE_UNITS[unit]
}

const UPSTREAM_MAX_BODY_RULE = 'must be a size from 1 byte to 256MiB (write 10MiB, 512KiB or bytes)'
const upstreamMaxBodyRange = () =>
  z.refine<number>((n: number) => Number.isSafeInteger(n) && n >= 1 && n <= 256 * 1024 ** 2, {
    error: UPSTREAM_MAX_BODY_RULE,
  })

const DURATION_RULE = 'must be a duration from 1s to 720h (write 90, 90s, 30m or 2h)'
const UPSTREAM_TIMEOUT_RULE = 'must be a duration from 1ms to 300s (write 500ms, 10s or 2m)'

const sessionTtlRange = () =>
  z.refine<number>((ms: number) => Number.isInteger(ms) && ms >= 1_000 && ms <= 30 * 86_400_000, {
    error: DURATION_RULE,
  })
const upstreamTimeoutRange = () =>
  z.refine<number>((ms: number) => Number.isInteger(ms) && ms >= 1 && ms <= 300_000, {
    error: UPSTREAM_TIMEOUT_RULE,
  })

/** A string that matches `pattern`, else `error` (and "must be a string" for another type). */
const matching = (pattern: RegExp, error: string) =>
  z.string({ error: 'must be a string' }).check(z.regex(pattern, { error }))

const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/
const BEARER_RULE = 'use letters, digits and - . _ ~ + / only (it is sent as a bearer token)'

/**
 * The schema of each setting, made the first time it is read: a start builds
 * only those of the settings it was given (issue 20: zod builds a schema at
 * some cost, and there are some fifty).
 */
export const SETTING_SCHEMAS = madeWhenRead({
  port: () => wholeNumber(0, 65_535),
  host: () => text(),
  seed: () => wholeNumber(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  pets: () => wholeNumber(0, 1_000_000),
  scenario: () => text(),
  timeline: () => timelineSetting(),
  data: () => text(),
  adminToken: () => matching(BEARER_TOKEN, BEARER_RULE),
  accounts: () => choice(['open', 'invite'] as const),
  allowedHost: () =>
    matching(
      /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)$/,
      'is not a host name or address (no scheme, port or path)',
    ),
  basePath: () => matching(/^(\/[A-Za-z0-9._~-]+)+\/?$/, 'must be a path such as /v1'),
  quiet: () => z.boolean({ error: 'must be true or false' }),
  // A Map, not z.record: a key named `__proto__` survives (issue 24).
  keys: () =>
    ownRecord(keyName(), keyOption(), { error: 'must be an object of key names to plans' }),
  rateLimit: () =>
    z.strictObject({
      banAfter: z.optional(z.number({ error: 'must be a number' })),
      banMinutes: z.optional(z.number({ error: 'must be a number' })),
    }),
  flaky: () =>
    z.strictObject({
      rate: z.optional(z.number({ error: 'must be a number' })),
      seed: z.optional(z.number({ error: 'must be a number' })),
    }),
  journalSize: () => wholeNumber(0, 100_000),
  // The server-wide journal budget (decision 0020): 0 keeps no entry.
  journalMaxEntries: () => wholeNumber(0, JOURNAL_BUDGET_CEILINGS.maxEntries),
  journalMaxBytes: () => wholeNumber(0, JOURNAL_BUDGET_CEILINGS.maxBytes),
  /** A session's idle time in ms, once read with `parseDuration`. */
  // NaN (what parseDuration gives for "1d") fails here: the rule, not zod's own words.
  sessionTtlMs: () => z.number({ error: DURATION_RULE }).check(sessionTtlRange()),
  /** The config file's `sessionTtl`: a duration string or a number of seconds. */
  sessionTtl: () =>
    z
      .pipe(z.union([z.string(), z.number()], { error: DURATION_RULE }), z.transform(parseDuration))
      .check(sessionTtlRange()),
  maxSessions: () => wholeNumber(1, 1_000_000),
  store: () =>
    matching(
      /^(rediss?:\/\/[^/?#\s]+(\/[0-9]{1,2})?|rediss?\+cluster:\/\/[^/?#\s]+)\/?$/,
      'is not a Redis URL such as redis://127.0.0.1:6379/0 (or redis+cluster://HOST:PORT,HOST:PORT for a cluster)',
    ),
  storePrefix: () => text(),
  upstream: () =>
    matching(
      /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
      'is not an http(s) base URL such as https://staging.example.test/v1',
    ),
  upstreamKey: () => matching(BEARER_TOKEN, BEARER_RULE),
  /** The upstream timeout in ms, once read with `parseDuration`. */
  // NaN (what parseDuration gives for "1d") fails here: the rule, not zod's own words.
  upstreamTimeoutMs: () => z.number({ error: UPSTREAM_TIMEOUT_RULE }).check(upstreamTimeoutRange()),
  /** The config file's `upstreamTimeout`: a duration string or a number of seconds. */
  upstreamTimeout: () =>
    z
      .pipe(
        z.union([z.string(), z.number()], { error: 'must be a duration such as 10s or 500ms' }),
        z.transform(parseDuration),
      )
      .check(upstreamTimeoutRange()),
  /** The upstream body limit in bytes, once read with `parseSize`. */
  upstreamMaxBodyBytes: () =>
    z.number({ error: UPSTREAM_MAX_BODY_RULE }).check(upstreamMaxBodyRange()),
  /** The config file's `upstreamMaxBody`: a size string or a number of bytes. */
  upstreamMaxBody: () =>
    z
      .pipe(
        z.union([z.string(), z.number()], { error: 'must be a size such as 10MiB' }),
        z.transform(parseSize),
      )
      .check(upstreamMaxBodyRange()),
  flag: () => z.boolean({ error: 'must be true or false' }),
  replayFallback: () => z.enum(['miss', 'sandbox'], { error: 'must be miss or sandbox' }),
  instance: () =>
    matching(/^[A-Za-z0-9._:@-]{1,64}$/, 'must be 1-64 characters of A-Z a-z 0-9 . _ : @ -'),
  // The fidelity settings of contract §16 (the sandbox checks them again, with its own messages).
  limitOutOfRange: () => choice(FIDELITY_CHOICES.limitOutOfRange),
  unknownStatusFilter: () => choice(FIDELITY_CHOICES.unknownStatusFilter),
  defaultStatus: () => choice(PET_STATUSES),
  nameMaxLength: () =>
    wholeNumber(FIDELITY_BOUNDS.nameMaxLength.min, FIDELITY_BOUNDS.nameMaxLength.max),
  unknownFields: () => choice(FIDELITY_CHOICES.unknownFields),
  pagination: () => choice(FIDELITY_CHOICES.pagination),
  totalCountHeader: () =>
    z.union(
      [
        z.literal(false),
        z.string().check(z.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, { error: HEADER_RULE })),
      ],
      { error: HEADER_RULE },
    ),
  // ownRecord, not z.record: a key `__proto__` is refused like any other unknown code (issue 24).
  errorCodes: () =>
    z.pipe(
      ownRecord(
        z.string().check(
          z.refine((code) => Object.hasOwn(ERROR_CODES, code), {
            error: 'is not one of the sandbox’s error codes',
          }),
        ),
        matching(
          /^[A-Za-z0-9_.:-]{1,100}$/,
          'must be a code of 1-100 characters of A-Z a-z 0-9 _ . : -',
        ),
        { error: 'must be an object of this sandbox’s codes to the deployment’s' },
      ),
      z.transform((codes) => Object.fromEntries(codes) as Partial<Record<ErrorCode, string>>),
    ),
  maxBodyBytes: () =>
    wholeNumber(FIDELITY_BOUNDS.maxBodyBytes.min, FIDELITY_BOUNDS.maxBodyBytes.max),
})

/** The first problem zod found, as "field: message" (the field as a dotted path). */
export const describeIssues = (error: core.$ZodError, prefix = ''): string =>
  error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        const where = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.')
        return `${issue.keys.map((k) => `"${k}"`).join(', ')} is not a setting${where === '' ? '' : ` of ${where}`}`
      }
      const field = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.')
      return field === '' ? issue.message : `${field} ${issue.message}`
    })
    .join('; ')
