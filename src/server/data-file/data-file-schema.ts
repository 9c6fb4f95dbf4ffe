import * as z from 'zod/mini'
import { LIMITS } from '../../contract/limits.js'
import { ownRecord } from '../../contract/own-record.js'

const isJsonObject = (input: unknown): boolean =>
  typeof input === 'object' && input !== null && !Array.isArray(input)

import { createPetNameSchema, PetSchema } from '../../contract/pet.js'
import { useEnglishZodMessages } from '../../contract/zod-messages.js'
import { SESSION_ID } from '../../state/sandbox-state.js'

// A broken data file is explained in the project's words (readDataFile, describeIssue); zod's
// English locale stays for the server's other readers of zod messages.
useEnglishZodMessages()

const buildDataFileSchema = (nameMaxLength: number) => {
  // One past the largest id once every id is used (createPet then answers 507).
  // (2^53 is not a safe integer, so zod's int() would refuse it.)
  const NextIdSchema = z.number().check(
    z.refine((n) => Number.isInteger(n) && n >= 1 && n <= LIMITS.maxId + 1, {
      message: `must be an integer from 1 to ${LIMITS.maxId + 1}`,
    }),
  )
  /** Ids are unique and below `nextId`, so a loaded store never reuses an id. */
  const checkIds = z.superRefine((store: { nextId: number; pets: { id: number }[] }, ctx) => {
    const seen = new Set<number>()
    store.pets.forEach((pet, index) => {
      if (seen.has(pet.id))
        ctx.addIssue({ code: 'custom', path: ['pets', index, 'id'], message: 'is a duplicate id' })
      seen.add(pet.id)
      if (pet.id >= store.nextId)
        ctx.addIssue({
          code: 'custom',
          path: ['pets', index, 'id'],
          message: 'is not below nextId',
        })
    })
  })
  // Names by the API's own rules (trimmed, 1 to nameMaxLength code points, no control characters).
  const PetsSchema = z.array(z.extend(PetSchema, { name: createPetNameSchema(nameMaxLength) }))
  /** One session's pets: the PetStore snapshot. */
  const StoreSchema = z.object({ nextId: NextIdSchema, pets: PetsSchema }).check(checkIds)
  /** One collection of the OpenAPI document: its records as JSON objects (checked against the document at start). */
  const CollectionSchema = z.object({
    nextSeq: NextIdSchema,
    // Kept as parsed (not z.record, which rebuilds the object and drops a `__proto__` field).
    records: z.array(
      z.custom<Record<string, unknown>>(isJsonObject, { error: 'must be an object' }),
    ),
  })
  /**
   * Version 5: one collection as a session's changes over the seeded records (decision 0068):
   * the records it created or replaced, one per line, and the seeded ids it deleted.
   */
  const ChangesSchema = z.object({
    nextSeq: NextIdSchema,
    changed: z.array(
      z.object({
        id: z.string(),
        seq: z.number().check(z.int(), z.gte(1), z.lte(LIMITS.maxId)),
        record: z.custom<Record<string, unknown>>(isJsonObject, { error: 'must be an object' }),
      }),
    ),
    deleted: z.array(z.string()),
  })
  return z
    .object({
      version: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
      nextId: NextIdSchema,
      pets: PetsSchema,
      // A Map: every session id the API accepts (`__proto__` too) loads back (issue 24).
      sessions: z.optional(
        ownRecord(z.string().check(z.regex(SESSION_ID, 'must be a session id')), StoreSchema, {
          error: 'must be an object of session ids to pets',
        }),
      ),
      // Version 3: the OpenAPI document's records, by session, then by collection key (decision 0049).
      openapi: z.optional(
        ownRecord(
          z.string().check(z.regex(SESSION_ID, 'must be a session id')),
          ownRecord(
            z.string().check(z.regex(/^oa:[0-9a-f]{16}:\//, 'must be a collection key')),
            z.union([CollectionSchema, ChangesSchema]),
            {
              error: 'must be an object of collection keys to records',
            },
          ),
          { error: 'must be an object of session ids to collections' },
        ),
      ),
      // Version 5: the seed the `openapi` changes were made over (`--seed`, records a collection).
      openapiSeed: z.optional(
        z.object({
          seed: z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER)),
          count: z.number().check(z.int(), z.gte(0), z.lte(1000)),
        }),
      ),
      // Version 4: accounts, keys as digests and prefixes, unused invites (contract §22, decision 0061).
      accounts: z.optional(AccountsSchema),
    })
    .check(checkIds)
    .check(
      z.superRefine((file, ctx) => {
        // Changes mean nothing without the seed they were made over.
        const changes = [...(file.openapi?.values() ?? [])].some((collections) =>
          [...collections.values()].some((c) => 'changed' in c),
        )
        if (changes && file.openapiSeed === undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['openapiSeed'],
            message: 'is required when openapi holds changes over the seed',
          })
        if (changes && file.version < 5)
          ctx.addIssue({
            code: 'custom',
            path: ['version'],
            message: 'must be 5 when openapi holds changes over the seed',
          })
      }),
    )
}

const HASH = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest (hex)'))
const TIME = z.number().check(z.int(), z.gte(0))
const LIMIT = z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER))
/** What the data file keeps of accounts: never a key or a password. */
const AccountsSchema = z.object({
  accounts: z.array(
    z.object({
      id: z.string().check(z.regex(/^acct_[0-9a-f]{24}$/, 'must be an account id')),
      email: z.string().check(z.minLength(3), z.maxLength(254)),
      passwordHash: z.string().check(z.regex(/^scrypt\$/, 'must be a scrypt hash')),
      createdAt: TIME,
    }),
  ),
  keys: z.array(
    z.object({
      id: z.string().check(z.regex(/^key_[0-9a-f]{16}$/, 'must be a key id')),
      accountId: z.string().check(z.regex(/^acct_[0-9a-f]{24}$/, 'must be an account id')),
      name: z.string().check(z.minLength(1), z.maxLength(400)),
      plan: z.enum(['free', 'pro', 'business', 'enterprise']),
      limits: z.object({ perMinute: LIMIT, perDay: LIMIT }),
      prefix: z.string().check(z.maxLength(16)),
      hash: HASH,
      createdAt: TIME,
      lastUsedAt: z.nullable(TIME),
      expiresAt: z.nullable(TIME),
    }),
  ),
  invites: z.array(z.object({ hash: HASH, createdAt: TIME })),
  // Portal log-ins by the cookie's digest (decision 0065); files written before have none.
  logins: z.optional(
    z.array(
      z.object({
        hash: HASH,
        accountId: z.string().check(z.regex(/^acct_[0-9a-f]{24}$/, 'must be an account id')),
        expiresAt: TIME,
      }),
    ),
  ),
})

const schemas = new Map<number, ReturnType<typeof buildDataFileSchema>>()

/**
 * The schema of a data file (`--data FILE`): the default session's PetStore
 * snapshot with a format version and, in version 2, the pets of every other
 * session that has changed them (`sessions`, by id), and in version 3 the
 * records of the `openapi` document's collections (`openapi`, by session id,
 * then by collection key). Version 1 and 2 files still load. Names follow the sandbox's `nameMaxLength` (default 100);
 * built once per limit.
 *
 * @example
 * dataFileSchema(100).safeParse(JSON.parse(text))
 */
export const dataFileSchema = (nameMaxLength: number = LIMITS.nameMaxCodePoints) => {
  let schema = schemas.get(nameMaxLength)
  if (schema === undefined) {
    schema = buildDataFileSchema(nameMaxLength)
    schemas.set(nameMaxLength, schema)
  }
  return schema
}

export type DataFile = z.infer<ReturnType<typeof dataFileSchema>>
