import { countOf } from './count-of.js'
import type { VerifyCheck, VerifyReport } from './verify-types.js'

/** How the table is laid out, and what the command does next. */
export interface FormatReportOptions {
  /** The longest line, in characters (default 120). */
  width?: number
  /** The run writes the config itself (`--emit-config`): no hint to run again with it. */
  emitsConfig?: boolean
}

const show = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)

const clip = (text: string, width: number): string =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim()

/**
 * The report as the terminal shows it: the spec checks (PASS, FAIL, SKIP),
 * then the gaps (target and sandbox side by side), then the verdict and
 * what to do next. Plain text, no colour, lines of at most `width` characters.
 *
 * @example
 * process.stdout.write(formatReport(report, { emitsConfig: true }))
 */
export const formatReport = (report: VerifyReport, options: FormatReportOptions = {}): string => {
  const width = options.width ?? 120
  const idWidth = Math.max(...[...report.checks, ...report.skipped].map((c) => c.id.length))
  const row = (mark: string, id: string, text: string) =>
    clip(`  ${mark.padEnd(4)}  ${id.padEnd(idWidth)}  ${oneLine(text)}`, width)
  const specs = report.checks.filter((c) => c.kind === 'spec')
  const gaps = report.checks.filter((c) => c.kind === 'gap')
  const skipped = (kind: 'spec' | 'gap') => report.skipped.filter((s) => s.kind === kind)
  const specRow = (c: VerifyCheck) => row(c.pass ? 'PASS' : 'FAIL', c.id, c.message)
  const gapRow = (c: VerifyCheck) =>
    row(
      c.pass ? 'same' : 'DIFF',
      c.id,
      `target: ${show(c.observed)} | sandbox: ${show(c.expected)}`,
    )
  const mode = report.allowWrites ? 'with writes' : 'read-only'
  const plan =
    report.rateLimit === null
      ? 'the key’s plan: no X-RateLimit-Limit seen'
      : `the key’s plan: X-RateLimit-Limit ${report.rateLimit.limit} (remaining ${report.rateLimit.remaining})`
  const { spec, gap } = report.summary
  const lines = [
    `petstore-sandbox verify ${report.target}`,
    `  ${report.requests} of at most ${countOf(report.maxRequests, 'request')}, ${mode}; ${plan}`,
    ...(report.createdPets.length === 0
      ? []
      : [
          `  created ${countOf(report.createdPets.length, 'pet')}: ${report.createdPets.map((p) => p.id).join(', ')}`,
        ]),
    '',
    'Spec: the target against the spec',
    ...specs.filter((c) => !c.pass).map(specRow),
    ...specs.filter((c) => c.pass).map(specRow),
    ...skipped('spec').map((s) => row('SKIP', s.id, s.reason)),
    '',
    'Gaps: where the spec is silent, the target next to the sandbox',
    ...gaps.map(gapRow),
    ...skipped('gap').map((s) => row('SKIP', s.id, s.reason)),
    '',
    ...(report.stopped === null ? [] : [`Stopped early: ${oneLine(report.stopped.message)}`]),
    `${report.passed ? 'PASSED' : 'FAILED'}: ${countOf(spec.passed, 'spec check')} passed, ${spec.failed} failed, ${spec.skipped} skipped; ${countOf(gap.same, 'gap')} the same, ${gap.different} different, ${gap.skipped} not seen.`,
    ...(gap.different > 0 && options.emitsConfig !== true
      ? [
          'Run again with --emit-config FILE and start the sandbox with --config FILE to answer like the target.',
        ]
      : []),
  ]
  return `${lines.join('\n')}\n`
}
