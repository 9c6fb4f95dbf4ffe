import { parseArgs } from 'node:util'
import { useEnglishZodMessages } from '../contract/zod-messages.js'
import { DEFAULT_SEED } from '../db/seed-pets.js'
import { readHarFile } from '../files/read-har-file.js'
import { writeFileAtomically } from '../files/write-file-atomically.js'
import type { PactExport } from '../pact/pact-document.js'
import { pactNameProblem } from '../pact/pact-names.js'
import { type AddedDocument, pactOfCollected } from '../pact/pact-on-demand.js'
import { createPactCollection, type PactCollection, type PactOwners } from '../pact/to-pact.js'
import { parseMaxBodyChars } from './parse-max-body-chars.js'

/** The text of `petstore-sandbox pact --help`. */
export const PACT_HELP = `Usage: petstore-sandbox pact --from FILE.har [--consumer NAME] [--provider NAME]
                             [--session ID] [--out FILE] [--max-body-chars N]
                             [--openapi FILE [--base-path PATH]]

Writes a Pact file (specification v4, Synchronous/HTTP interactions) from a recording:
the sandbox's requests.har, the upstream mode's recording, or a browser's HAR export.
One interaction per distinct exchange; the scenario is the provider state; secrets and
headers bound to time or quota are left out. Each answer is checked against the
sandbox's OpenAPI document first: an exchange it refuses is listed, not written.

Options:
      --from FILE        the HAR to read (required)
      --consumer NAME    the consumer's name (default pet-store-client)
      --provider NAME    the provider's name (default pet-store)
      --session ID       only this session's requests (default: every session in the file)
      --out FILE         write the pact there (default: standard output)
      --max-body-chars N characters of each body kept while reading (default
                         1048576); an exchange with a longer body is refused
      --openapi FILE     the OpenAPI document the sandbox served with --openapi: its
                         operations' exchanges are checked against it and written
      --base-path PATH   the sandbox's --base-path when it had one (default /v1)
  -h, --help             this help

Exit status: 0 when every exchange made it into the pact, 1 when some were refused
(listed on standard error; the pact holds the others), 2 when the file cannot be read.
`

/** What the command writes to, and reads the file with (tests give their own). */
export interface PactCommandIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  readFile?: (path: string) => Promise<string>
  writeFile?: (path: string, text: string) => Promise<void>
}

const usage = (io: PactCommandIo, message: string): number => {
  io.stderr.write(`petstore-sandbox pact: ${message}\n`)
  io.stderr.write('Run "petstore-sandbox pact --help" for the options.\n')
  return 2
}

/** The summary on standard error: what was written, skipped and refused. */
const summary = (exported: PactExport, out: string | undefined): string => {
  const lines = [
    `${exported.pact.interactions.length} interactions written${out === undefined ? '' : ` to ${out}`}.`,
  ]
  for (const { seq, reason } of exported.skipped) lines.push(`  skipped  #${seq}: ${reason}`)
  for (const problem of exported.problems) {
    lines.push(`  refused  ${problem.interaction} (${problem.seqs.map((s) => `#${s}`).join(', ')})`)
    for (const reason of problem.problems) lines.push(`           ${reason}`)
  }
  if (exported.problems.length > 0)
    lines.push(
      `${exported.problems.length} exchanges refused by the OpenAPI pre-check: a broker's bi-directional comparison would fail on them.`,
    )
  return `${lines.join('\n')}\n`
}

/**
 * `petstore-sandbox pact --from FILE.har`: the same export as
 * `sandbox.pact()` and `GET /__sandbox/pact`, over a HAR; resolves the exit
 * status (0 all written, 1 some refused, 2 a bad argument or file).
 *
 * @example
 * process.exitCode = await runPactCommand(['--from', 'session.har', '--out', 'pact.json'], process)
 */
export const runPactCommand = async (
  args: readonly string[],
  io: PactCommandIo,
): Promise<number> => {
  let values: Partial<
    Record<
      | 'from'
      | 'consumer'
      | 'provider'
      | 'session'
      | 'out'
      | 'max-body-chars'
      | 'openapi'
      | 'base-path',
      string
    >
  > & {
    help?: boolean
  }
  try {
    values = parseArgs({
      args: [...args],
      options: {
        from: { type: 'string' },
        consumer: { type: 'string' },
        provider: { type: 'string' },
        session: { type: 'string' },
        out: { type: 'string' },
        'max-body-chars': { type: 'string' },
        openapi: { type: 'string' },
        'base-path': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error))
  }
  if (values.help === true) {
    io.stdout.write(PACT_HELP)
    return 0
  }
  if (values.from === undefined || values.from === '')
    return usage(io, 'Failed to write a pact: give the HAR file with --from FILE.har.')
  const names = {
    consumer: values.consumer ?? 'pet-store-client',
    provider: values.provider ?? 'pet-store',
  }
  for (const name of ['consumer', 'provider'] as const) {
    const problem = pactNameProblem(names[name])
    if (problem !== undefined) return usage(io, `Failed to read --${name}: ${problem}.`)
  }
  if (values.out === '') return usage(io, 'Failed to read --out: give a file name.')
  if (values.openapi === '') return usage(io, 'Failed to read --openapi: give a file name.')
  if (values['base-path'] !== undefined && values.openapi === undefined)
    return usage(io, 'Failed to read --base-path: it places the --openapi document; give one.')
  const basePath = (values['base-path'] ?? '/v1').replace(/\/+$/, '')
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath))
    return usage(
      io,
      'Failed to read --base-path: give a non-root path such as /v1, as the sandbox had.',
    )
  const maxBodyChars = parseMaxBodyChars(values['max-body-chars'])
  if (typeof maxBodyChars === 'string') return usage(io, maxBodyChars)

  let exported: PactExport
  try {
    useEnglishZodMessages()
    // The document the sandbox served its added operations from (contract §20): loaded
    // with the server's own loader, so a document it starts with is one this reads.
    let added: AddedDocument | undefined
    if (values.openapi !== undefined) {
      const { createOpenApiOperations } = await import('../openapi/create-openapi-operations.js')
      added = await createOpenApiOperations({
        source: values.openapi,
        basePath,
        seed: DEFAULT_SEED,
      })
    }
    // Streamed, one collection per session (a pact lists sessions one after the other):
    // an exchange keeps one interaction in all, a repeat only its seq.
    const sessions = new Map<string, PactCollection>()
    const owners: PactOwners = new Map()
    await readHarFile(
      values.from,
      (entry) => {
        if (values.session !== undefined && entry.session !== values.session) return
        let collection = sessions.get(entry.session)
        if (collection === undefined) {
          collection = createPactCollection(owners, sessions.size)
          sessions.set(entry.session, collection)
        }
        collection.add(entry)
      },
      { maxBodyChars, readFile: io.readFile },
    )
    if (values.session !== undefined && sessions.size === 0)
      throw new TypeError(
        `Failed to write a pact: the HAR holds no request of session "${values.session}".`,
      )
    exported = pactOfCollected([...sessions.values()], names, added)
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `Failed to read ${values.from}: no such file.`
        : error instanceof Error
          ? error.message
          : String(error)
    io.stderr.write(`petstore-sandbox pact: ${reason}\n`)
    return 2
  }
  const text = `${JSON.stringify(exported.pact, null, 2)}\n`
  if (values.out === undefined) io.stdout.write(text)
  else {
    try {
      await (io.writeFile ?? writeFileAtomically)(values.out, text)
    } catch (error) {
      io.stderr.write(
        `petstore-sandbox pact: Failed to write ${values.out}: ${error instanceof Error ? error.message : String(error)}.\n`,
      )
      return 2
    }
  }
  io.stderr.write(summary(exported, values.out))
  return exported.problems.length > 0 ? 1 : 0
}
