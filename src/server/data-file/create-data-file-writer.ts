import { createTextFileWriter, type TextFileWriter } from '../../files/create-text-file-writer.js'
import type { AccountsSnapshot } from '../../state/memory-account-store.js'
import type { DataFile } from './data-file-schema.js'
import type { CollectionFilePart, DataFileSnapshot, OpenApiFileRecords } from './read-data-file.js'

/** Writes a store's snapshot to its data file, one write at a time. */
export type DataFileWriter = TextFileWriter
/** JSON with one pet per line: diffable, and quick to write for 100,000 pets. */
const formatPets = (pets: DataFile['pets']): string =>
  `[\n${pets.map((p) => JSON.stringify(p)).join(',\n')}\n]`

/**
 * A collection's records, one per line, kept by the snapshot object: a snapshot that comes
 * back unchanged (a session no request changed since, decision 0067) is not formatted again.
 */
const formatted = new WeakMap<object, string>()
const formatCollection = (c: CollectionFilePart): string => {
  const known = formatted.get(c)
  if (known !== undefined) return known
  const text =
    'records' in c
      ? `{"nextSeq":${c.nextSeq},"records":[\n${c.records.map((r) => JSON.stringify(r)).join(',\n')}\n]}`
      : `{"nextSeq":${c.nextSeq},"deleted":${JSON.stringify(c.deleted)},"changed":[${c.changed
          .map((r) => `\n${JSON.stringify(r)}`)
          .join(',')}${c.changed.length === 0 ? '' : '\n'}]}`
  formatted.set(c, text)
  return text
}

/** The document's records: one record per line, as the pets. */
const formatOpenApi = (records: OpenApiFileRecords): string =>
  [...records]
    .map(
      ([session, collections]) =>
        `${JSON.stringify(session)}:{${[...collections]
          .map(([key, c]) => `\n${JSON.stringify(key)}:${formatCollection(c)}`)
          .join(',')}\n}`,
    )
    .join(',\n')

/** Accounts, keys, invites and portal log-ins: one record per line. */
const formatAccounts = (accounts: AccountsSnapshot): string => {
  const lines = (items: readonly unknown[]) =>
    items.length === 0 ? '[]' : `[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]`
  return `{"accounts":${lines(accounts.accounts)},\n"keys":${lines(accounts.keys)},\n"invites":${lines(accounts.invites)},\n"logins":${lines(accounts.logins ?? [])}}`
}

/**
 * Version 1 while only the default session has pets to keep; version 2 adds
 * `sessions`; version 3 adds `openapi` (the document's changed records);
 * version 4 adds `accounts` (contract §22); version 5 keeps the document's
 * records as changes over the seed, with `openapiSeed` (decision 0068).
 */
const formatDataFile = (file: DataFileSnapshot): string => {
  const sessions = [...(file.sessions ?? [])]
  const openapi = file.openapi ?? new Map()
  const accounts = file.accounts
  const changes = [...openapi.values()].some((collections) =>
    [...collections.values()].some((c) => 'changed' in c),
  )
  const seed = changes ? file.openapiSeed : undefined
  // Changes without their seed could not be loaded back: never written.
  if (changes && seed === undefined)
    throw new Error('Failed to write the data file: OpenAPI changes without their seed.')
  const version =
    seed !== undefined
      ? 5
      : accounts !== undefined
        ? 4
        : openapi.size > 0
          ? 3
          : sessions.length > 0
            ? 2
            : 1
  const head = `{"version":${version},"nextId":${file.nextId},"pets":${formatPets(file.pets)}`
  const body = sessions
    .map(
      ([id, store]) =>
        `${JSON.stringify(id)}:{"nextId":${store.nextId},"pets":${formatPets(store.pets)}}`,
    )
    .join(',\n')
  return `${head}${sessions.length === 0 ? '' : `,"sessions":{\n${body}\n}`}${
    openapi.size === 0 ? '' : `,"openapi":{\n${formatOpenApi(openapi)}\n}`
  }${seed === undefined ? '' : `,"openapiSeed":{"seed":${seed.seed},"count":${seed.count}}`}${accounts === undefined ? '' : `,"accounts":${formatAccounts(accounts)}`}}\n`
}

/**
 * The data file's writer: serialized and coalescing (`createTextFileWriter`),
 * each write atomic, so a stale snapshot never lands over a newer one and a
 * burst of creates costs two writes, not one each. A new file is made 0600:
 * it may hold accounts' password and key hashes.
 *
 * @example
 * const writer = createDataFileWriter('./pets.json', () => sandbox.db.pets.snapshot())
 * store.subscribe(() => writer.write())
 */
export const createDataFileWriter = (
  path: string,
  snapshot: () => DataFileSnapshot,
): DataFileWriter => createTextFileWriter(path, () => formatDataFile(snapshot()), 0o600)
