import type { VerifyReport } from './verify-types.js'

// XML 1.0 allows no control characters but tab, newline and carriage return.
const isAllowedInXml = (char: string): boolean => {
  const code = char.charCodeAt(0)
  return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d
}

const escapeXml = (text: string): string =>
  [...text]
    .filter(isAllowedInXml)
    .join('')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')

const show = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '')

/**
 * The report as JUnit XML for CI: a `spec` suite (a failed spec check is a
 * failure, one not run is skipped, an early stop is a failure of its own) and
 * a `gap` suite, whose differences are reported as output, not failures: the
 * exit code of `verify` does not depend on them either.
 *
 * @example
 * await writeFile('verify.xml', toJunitXml(report))
 */
export const toJunitXml = (report: VerifyReport): string => {
  const suite = (kind: 'spec' | 'gap') => {
    const checks = report.checks.filter((c) => c.kind === kind)
    const skipped = report.skipped.filter((s) => s.kind === kind)
    const cases = [
      ...checks.map((c) => {
        const detail = `observed: ${show(c.observed)}\nexpected: ${show(c.expected)}`
        if (kind === 'spec' && !c.pass)
          return `    <testcase classname="${kind}" name="${escapeXml(c.id)}"><failure message="${escapeXml(c.message)}">${escapeXml(detail)}</failure></testcase>`
        return `    <testcase classname="${kind}" name="${escapeXml(c.id)}"><system-out>${escapeXml(`${c.message}\n${detail}`)}</system-out></testcase>`
      }),
      ...skipped.map(
        (s) =>
          `    <testcase classname="${kind}" name="${escapeXml(s.id)}"><skipped message="${escapeXml(s.reason)}"/></testcase>`,
      ),
    ]
    const stopped = kind === 'spec' && report.stopped !== null
    if (stopped)
      cases.push(
        `    <testcase classname="spec" name="verify.complete"><failure message="${escapeXml(report.stopped?.message ?? '')}"/></testcase>`,
      )
    const failures =
      (kind === 'spec' ? checks.filter((c) => !c.pass).length : 0) + (stopped ? 1 : 0)
    return [
      `  <testsuite name="${kind}" tests="${cases.length}" failures="${failures}" skipped="${skipped.length}" timestamp="${report.startedAt}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n')
  }
  const failures = report.summary.spec.failed + (report.stopped === null ? 0 : 1)
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="petstore-sandbox verify ${escapeXml(report.target)}" tests="${report.checks.length + report.skipped.length}" failures="${failures}">
${suite('spec')}
${suite('gap')}
</testsuites>
`
}
