import { parseArgs } from 'node:util'
import { useEnglishZodMessages } from '../contract/zod-messages.js'
import { readHarFile } from '../files/read-har-file.js'
import type { ClientReport, FindingLevel } from '../judge/finding.js'
import { createReportCollector } from '../judge/report-collector.js'
import { countOf } from '../verify/count-of.js'
import { parseMaxBodyChars } from './parse-max-body-chars.js'

/** The text of `petstore-sandbox report --help`. */
export const REPORT_HELP = `Usage: petstore-sandbox report --from FILE.har [--fail-on error|warning] [--json]
                               [--max-body-chars N]

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
      --max-body-chars N characters of each body kept while reading (default
                         1048576); the file is read as a stream, whatever its length
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
  let values: {
    from?: string
    'fail-on'?: string
    json?: boolean
    help?: boolean
    'max-body-chars'?: string
  }
  try {
    values = parseArgs({
      args: [...args],
      options: {
        from: { type: 'string' },
        'fail-on': { type: 'string' },
        json: { type: 'boolean' },
        'max-body-chars': { type: 'string' },
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
  const maxBodyChars = parseMaxBodyChars(values['max-body-chars'])
  if (typeof maxBodyChars === 'string') return usage(io, maxBodyChars)

  let reports: ClientReport[]
  try {
    useEnglishZodMessages()
    // Streamed: each entry becomes the compact request the rules read, and is let go.
    const collector = createReportCollector()
    await readHarFile(values.from, (entry) => collector.add(entry), {
      maxBodyChars,
      readFile: io.readFile,
    })
    reports = collector.reports()
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
