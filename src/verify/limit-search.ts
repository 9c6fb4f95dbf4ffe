import { FIDELITY_BOUNDS } from '../contract/fidelity.js'
import { countOf } from './count-of.js'
import { detailFields, MAX_CREATED_PETS, postPet } from './post-probe.js'
import { recordGap } from './record-gap.js'
import { sight, type VerifyContext } from './verify-context.js'

/** Between a size known to pass and one known to fail, the largest that passes (bisection). */
const largestPassing = async (
  low: number,
  high: number,
  passes: (n: number) => Promise<boolean | undefined>,
): Promise<number | undefined> => {
  let lo = low
  let hi = high
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    const ok = await passes(mid)
    if (ok === undefined) return undefined
    if (ok) lo = mid
    else hi = mid
  }
  return lo
}

// categoryId 0 is invalid: a careful API answers 400 and creates nothing.
const FILL = JSON.stringify({ name: 'petstore-sandbox verify', categoryId: 0 })

/**
 * `gap.maxBodyBytes`: the largest body the target reads. Bodies are a NewPet
 * that is invalid (categoryId 0) padded with spaces, so they are answered 400
 * (read) or 413 (too large) and create nothing. It tries the sandbox's
 * setting first (two requests when they agree), then doubles or bisects; no
 * body is more than twice the limit found (at most 10 MiB + 1).
 */
export const findMaxBodyBytes = async (ctx: VerifyContext): Promise<void> => {
  const { min, max } = FIDELITY_BOUNDS.maxBodyBytes
  let sighted = false
  const read = async (size: number): Promise<boolean | undefined> => {
    const answer = await postPet(ctx, 'gap.maxBodyBytes', FILL + ' '.repeat(size - FILL.length))
    if (answer === undefined) return undefined
    if (answer.status === 413 && !sighted) {
      sighted = true
      sight(ctx, `POST /pets with a body of ${size} bytes`, 'payload_too_large', 413, answer)
    }
    return answer.status !== 413
  }
  const record = (value: number | string, emit: boolean, message: string) =>
    recordGap(ctx, 'maxBodyBytes', value, emit, message)
  const current = ctx.current.maxBodyBytes
  const atCurrent = await read(current)
  if (atCurrent === undefined) return
  let lo: number
  let hi: number
  if (atCurrent) {
    lo = current
    hi = current + 1
    for (;;) {
      const ok = await read(hi)
      if (ok === undefined) return
      if (!ok) break
      lo = hi
      if (hi > max)
        return record(
          `>${max}`,
          false,
          `A body of ${hi} bytes is read: more than any setting allows.`,
        )
      hi = Math.min(hi * 2, max + 1)
    }
  } else {
    hi = current
    const atMin = await read(min)
    if (atMin === undefined) return
    if (!atMin) return record(`<${min}`, false, `Even a body of ${min} bytes is answered 413.`)
    lo = min
  }
  const found = await largestPassing(lo, hi, read)
  if (found !== undefined)
    record(found, true, `A body of ${found} bytes is read; ${found + 1} bytes are answered 413.`)
}

const NAME_PREFIX = 'petstore-sandbox-verify-'
const nameOf = (length: number): string =>
  length > NAME_PREFIX.length
    ? NAME_PREFIX + 'x'.repeat(length - NAME_PREFIX.length)
    : 'x'.repeat(length)

/**
 * `gap.nameMaxLength`: the longest name accepted. When the target's 400 lists
 * `details` by field, names are tried in NewPets that are invalid anyway
 * (categoryId 0), so nothing is created: a name is too long when `name` is
 * among the fields. Otherwise two valid NewPets (the setting's length and one
 * more) tell whether the target's limit is the sandbox's, within the 5 pets.
 */
export const findNameMaxLength = async (ctx: VerifyContext): Promise<void> => {
  const { max } = FIDELITY_BOUNDS.nameMaxLength
  const current = ctx.current.nameMaxLength
  const tooLong = async (length: number): Promise<boolean | undefined> => {
    const answer = await postPet(
      ctx,
      'gap.nameMaxLength',
      JSON.stringify({ name: nameOf(length), categoryId: 0 }),
    )
    if (answer === undefined || answer.status === 413) return undefined
    return detailFields(answer).includes('name')
  }
  const probe = await postPet(
    ctx,
    'gap.nameMaxLength',
    JSON.stringify({ name: 'x', categoryId: 0 }),
  )
  if (probe === undefined) return
  const fields = detailFields(probe)
  if (probe.status === 400 && fields.includes('categoryId') && !fields.includes('name')) {
    const passes = async (length: number) => {
      const flagged = await tooLong(length)
      return flagged === undefined ? undefined : !flagged
    }
    const atCurrent = await passes(current)
    const above = atCurrent === true ? await passes(current + 1) : undefined
    if (atCurrent === true && above === false)
      return recordGap(
        ctx,
        'nameMaxLength',
        current,
        true,
        `A name of ${countOf(current, 'character')} is accepted, ${current + 1} is not.`,
      )
    const atMax = await passes(max + 1)
    if (atMax === undefined)
      return recordGap(
        ctx,
        'nameMaxLength',
        undefined,
        false,
        'A long name was answered 413: the body limit hides the name limit.',
      )
    if (atMax)
      return recordGap(
        ctx,
        'nameMaxLength',
        `>${max}`,
        false,
        `A name of ${max + 1} characters is accepted: more than any setting allows.`,
      )
    const found = await largestPassing(1, max + 1, passes)
    if (found !== undefined)
      recordGap(
        ctx,
        'nameMaxLength',
        found,
        true,
        `A name of ${countOf(found, 'character')} is accepted, ${found + 1} is not (read from the 400's details).`,
      )
    return
  }
  // No details by field: two valid NewPets, if the run may still create them.
  if (ctx.created.length + 2 > MAX_CREATED_PETS)
    return recordGap(
      ctx,
      'nameMaxLength',
      undefined,
      false,
      'The 400 answers list no details by field, and no pets may be created to try names.',
    )
  const valid = async (length: number) => {
    const answer = await postPet(
      ctx,
      'gap.nameMaxLength',
      JSON.stringify({ name: nameOf(length), categoryId: 1 }),
    )
    return answer === undefined ? undefined : answer.status === 201
  }
  const atCurrent = await valid(current)
  const above = atCurrent === true ? await valid(current + 1) : undefined
  if (atCurrent === true && above === false)
    recordGap(
      ctx,
      'nameMaxLength',
      current,
      true,
      `A pet named with ${countOf(current, 'character')} is created, ${current + 1} is refused.`,
    )
  else if (above === true)
    recordGap(
      ctx,
      'nameMaxLength',
      `>${current}`,
      false,
      `A pet named with ${current + 1} characters is created (the exact limit needs details by field).`,
    )
  else
    recordGap(
      ctx,
      'nameMaxLength',
      `<${current}`,
      false,
      `A pet named with ${countOf(current, 'character')} is refused.`,
    )
}
