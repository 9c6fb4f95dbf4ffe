import type { ErrorCode } from '../contract/error-codes.js'
import { FIDELITY_SETTING_NAMES, type FidelitySettings } from '../contract/fidelity.js'
import { countOf } from './count-of.js'
import { recordGap } from './record-gap.js'
import { errorCodeOf, type VerifyContext } from './verify-context.js'
import type { VerifyCheck } from './verify-types.js'

const show = (value: unknown): string =>
  typeof value === 'string' ? `"${value}"` : JSON.stringify(value)

/**
 * `gap.errorCodes` from the errors the run provoked: the contract's code of
 * each, and the code the target answered where it differs. A situation the
 * target answered with another status is noted, not mapped (a code map
 * cannot change a status).
 */
export const observeErrorCodes = (ctx: VerifyContext): Set<string> => {
  const renamed: Partial<Record<ErrorCode, string>> = {}
  const seen = new Set<string>()
  const notes: string[] = []
  for (const { situation, contractCode, status, observed } of ctx.sightings) {
    const code = errorCodeOf(observed)
    if (observed.status !== status) {
      notes.push(`${situation} is answered ${observed.status}, this contract ${status}`)
      continue
    }
    if (code === undefined) continue
    const before = seen.has(contractCode) ? (renamed[contractCode] ?? contractCode) : undefined
    if (before !== undefined && before !== code) {
      notes.push(`${contractCode} is answered both "${before}" and "${code}"`)
      continue
    }
    seen.add(contractCode)
    if (code !== contractCode) renamed[contractCode] = code
  }
  if (seen.size === 0) {
    recordGap(ctx, 'errorCodes', undefined, false, 'No error the run provoked carried a code.')
    return seen
  }
  const names = Object.entries(renamed).map(([from, to]) => `${from} → ${to}`)
  recordGap(
    ctx,
    'errorCodes',
    renamed,
    true,
    `${countOf(seen.size, 'code')} seen${names.length === 0 ? ', all this contract’s' : `; renamed: ${names.join(', ')}`}${notes.length === 0 ? '' : `; ${notes.join('; ')}`}.`,
  )
  return seen
}

const sameValue = (
  name: keyof FidelitySettings,
  observed: unknown,
  expected: unknown,
  codesSeen: ReadonlySet<string>,
): boolean => {
  if (name === 'totalCountHeader' && typeof observed === 'string' && typeof expected === 'string')
    return observed.toLowerCase() === expected.toLowerCase()
  if (name === 'errorCodes') {
    // Maps: a code a target answers (`constructor`, say) is looked up as an own key only.
    const target = new Map(Object.entries(observed as Record<string, string>))
    const sandbox = new Map(Object.entries(expected as Record<string, string>))
    return [...codesSeen].every(
      (code) => (target.get(code) ?? code) === (sandbox.get(code) ?? code),
    )
  }
  return observed === expected
}

/**
 * The gap checks: each observed gap next to the sandbox's current setting
 * (pass when they agree), and the config that makes the sandbox answer like
 * the target (the current settings, with every observed value written over).
 */
export const toGapChecks = (
  ctx: VerifyContext,
  codesSeen: ReadonlySet<string>,
): { checks: VerifyCheck[]; config: Partial<FidelitySettings> } => {
  const checks: VerifyCheck[] = []
  const config: Record<string, unknown> = { ...ctx.current }
  for (const name of FIDELITY_SETTING_NAMES) {
    const gap = ctx.gaps.get(name)
    if (gap === undefined || gap.observed === undefined) continue
    const expected = ctx.current[name]
    const pass = sameValue(name, gap.observed, expected, codesSeen)
    checks.push({
      id: `gap.${name}`,
      kind: 'gap',
      pass,
      observed: gap.observed,
      expected,
      message: `${gap.message}${pass ? ' The sandbox answers the same.' : ` The sandbox's setting: ${show(expected)}.`}${gap.emit || pass ? '' : ' No setting can express it.'}`,
    })
    if (!gap.emit) continue
    config[name] =
      name === 'errorCodes'
        ? {
            ...Object.fromEntries(
              Object.entries(ctx.current.errorCodes).filter(([code]) => !codesSeen.has(code)),
            ),
            ...(gap.observed as object),
          }
        : gap.observed
  }
  return { checks, config: config as Partial<FidelitySettings> }
}
