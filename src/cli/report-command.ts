import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { useEnglishZodMessages } from '../contract/zod-messages.js'
import { entriesFromHAR } from '../judge/entries-from-har.js'
import type { ClientReport, FindingLevel } from '../judge/finding.js'
import { reportClient } from '../judge/report-client.js'
import { countOf } from '../verify/count-of.js'

/** The text of `petstore-sandbox report --help`. */
export const REPORT_HELP = `Usage: petstore-sandbox report --from FILE.har [--fail-on error|warning] [--json]

Judges the client behind a recording by the rules of the sandbox's client-behaviour
report (retrying before Retry-After, no exponential back-off, requests while banned,
the deprecated getPet, a key in the query string, a duplicate create after a failure,
a refused key used again): the sandbox's requests.har, the upstream mode's recording,
or a browser's HAR export.

Options:
      --from FILE        the HAR to judge (required)
      --fail-on LEVEL    exit 1 when a finding of this level or worse is present:
                         error (default) or warning
      --json             print the reports (one per session) as JSON
  -h, --help             this help

Exit status: 0 without such a finding, 1 with one, 2 when the file cannot be judged.
`

/** What the command writes to, and reads the file with (tests give their own). */
export interface ReportCommandIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  readFile?: (path: string) => Promise<string>
}

const LEVELS: readonly FindingLevel[] = ['warning', 'error']

const showReport = (report: ClientReport): string => {
  const lines = [`Session "${report.session}": ${report.requests} requests judged.`]
  if (report.findings.length === 0) lines.push('  No findings: the client behaved.')
  for (const finding of report.findings)
    lines.push(
      `  ${finding.level.padEnd(7)}  ${finding.rule}  ${finding.seqs.map((s) => `#${s}`).join(', ')}`,
      `           ${finding.message}`,
    )
  return lines.join('\n')
}

const usage = (io: ReportCommandIo, message: string): number => {
  io.stderr.write(`petstore-sandbox report: ${message}\n`)
  io.stderr.write('Run "petstore-sandbox report --help" for the options.\n')
  return 2
}

/**
 * `petstore-sandbox report --from FILE.har`: the same rules as the live
 * report, over a HAR; resolves the exit status (0 clean, 1 a finding at or
 * above `--fail-on`, 2 a bad argument or file).
 *
 * @example
 * process.exitCode = await runReportCommand(['--from', 'session.har'], process)
 */
export const runReportCommand = async (
  args: readonly string[],
  io: ReportCommandIo,
): Promise<number> => {
  let values: { from?: string; 'fail-on'?: string; json?: boolean; help?: boolean }
  try {
    values = parseArgs({
      args: [...args],
      options: {
        from: { type: 'string' },
        'fail-on': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error))
  }
  if (values.help === true) {
    io.stdout.write(REPORT_HELP)
    return 0
  }
  if (values.from === undefined || values.from === '')
    return usage(io, 'Failed to judge: give the HAR file with --from FILE.har.')
  const failOn = values['fail-on'] ?? 'error'
  if (!(LEVELS as readonly string[]).includes(failOn))
    return usage(io, `Failed to read --fail-on: "${failOn}" is not error or warning.`)

  let reports: ClientReport[]
  try {
    const text = await (io.readFile ?? ((path) => readFile(path, 'utf8')))(values.from)
    let har: unknown
    try {
      har = JSON.parse(text)
    } catch (error) {
      throw new TypeError(
        `Failed to read the HAR: it is not JSON (${error instanceof Error ? error.message : String(error)}).`,
      )
    }
    useEnglishZodMessages()
    reports = entriesFromHAR(har).map(({ session, entries }) => reportClient(entries, { session }))
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `Failed to read ${values.from}: no such file.`
        : error instanceof Error
          ? error.message
          : String(error)
    io.stderr.write(`petstore-sandbox report: ${reason}\n`)
    return 2
  }

  const threshold = LEVELS.indexOf(failOn as FindingLevel)
  const failing = reports.some((report) =>
    report.findings.some((finding) => LEVELS.indexOf(finding.level) >= threshold),
  )
  if (values.json === true) io.stdout.write(`${JSON.stringify(reports, null, 2)}\n`)
  else {
    const all = reports.flatMap((r) => r.findings)
    const errors = all.filter((f) => f.level === 'error').length
    io.stdout.write(
      `${reports.length === 0 ? 'The HAR holds no requests.' : reports.map(showReport).join('\n\n')}\n\n${countOf(all.length, 'finding')} (${countOf(errors, 'error')}, ${countOf(all.length - errors, 'warning')})${failing ? `: failing on ${failOn}` : ''}.\n`,
    )
  }
  return failing ? 1 : 0
}
