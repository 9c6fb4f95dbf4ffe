import type { PetStatus } from '../contract/pet.js'
import { detailFields, postPet } from './post-probe.js'
import { recordGap } from './record-gap.js'
import { describeAnswer, recordCheck, sight, type VerifyContext } from './verify-context.js'

const expect400 = (
  ctx: VerifyContext,
  id: string,
  what: string,
  answer: Awaited<ReturnType<typeof postPet>>,
): void => {
  if (answer === undefined) return
  recordCheck(ctx, id, {
    pass: answer.status === 400,
    observed: describeAnswer(answer),
    expected: '400 with an Error body',
    message:
      answer.status === 400
        ? `${what} is answered 400.`
        : `${what} is answered ${answer.status}, not 400 (the spec's Errors table).${answer.status === 201 ? ' A pet was created.' : ''}`,
  })
}

/** One POST of a check: what it sends, in words and as the body. */
interface BodyProbe {
  what: string
  body: Record<string, unknown>
}

/**
 * NewPet's required fields each missing alone (the others valid, so a 400 can
 * only be for the missing one), then none at all (issue 31 item 11).
 */
const missingFieldProbes = (name: string): BodyProbe[] => [
  { what: 'POST /pets without name', body: { categoryId: 1 } },
  { what: 'POST /pets without categoryId', body: { name } },
  { what: 'POST /pets with {}', body: {} },
]

/** Each NewPet field with a value of the wrong type, the others valid. */
const wrongTypeProbes = (name: string): BodyProbe[] => [
  { what: 'POST /pets with name 42', body: { name: 42, categoryId: 1 } },
  { what: 'POST /pets with categoryId "one"', body: { name, categoryId: 'one' } },
  { what: 'POST /pets with categoryId 1.5', body: { name, categoryId: 1.5 } },
  { what: 'POST /pets with status 7', body: { name, categoryId: 1, status: 7 } },
]

/**
 * Sends each probe of a check (while the run may still POST), then records the
 * check: it passes only when every probe sent was answered 400.
 */
const runProbes = async (ctx: VerifyContext, id: string, probes: BodyProbe[]): Promise<void> => {
  const answers: { what: string; answer: NonNullable<Awaited<ReturnType<typeof postPet>>> }[] = []
  for (const { what, body } of probes) {
    const answer = await postPet(ctx, id, JSON.stringify(body))
    if (answer === undefined) break
    answers.push({ what, answer })
    sight(ctx, what, 'validation_failed', 400, answer)
  }
  if (answers.length === 0) return
  const wrong = answers.filter(({ answer }) => answer.status !== 400)
  recordCheck(ctx, id, {
    pass: wrong.length === 0,
    observed: answers.map(({ what, answer }) => `${what}: ${describeAnswer(answer)}`).join('; '),
    expected: `400 with an Error body, for each of ${answers.length} requests`,
    message:
      wrong.length === 0
        ? `${answers.map(({ what }) => what.replace(/^POST \/pets /, '')).join(', ')}: each is answered 400.`
        : wrong
            .map(
              ({ what, answer }) =>
                `${what} is answered ${answer.status}, not 400 (the spec's Errors table).${answer.status === 201 ? ' A pet was created.' : ''}`,
            )
            .join(' '),
  })
}

/**
 * With `--allow-writes`: createPet's spec checks, and the gaps only a POST
 * shows (`unknownFields`, `defaultStatus`). Every pet it may create is named
 * `petstore-sandbox verify <stamp> #n` (`verify n` where the target refuses
 * that name as too long); it creates at most 5. NewPet's required fields
 * each missing alone, and each field of a wrong type, are probes of their own.
 */
export const runWriteChecks = async (ctx: VerifyContext): Promise<void> => {
  // Short names once the target refuses the long one for its length (a small nameMaxLength).
  let short = false
  const name = (n: number) => (short ? `verify ${n}` : `petstore-sandbox verify ${ctx.stamp} #${n}`)
  const create = async (n: number, fields: Record<string, unknown>) => {
    const answer = await postPet(
      ctx,
      'spec.create.created',
      JSON.stringify({ name: name(n), ...fields }),
    )
    if (answer?.status !== 400 || short || !detailFields(answer).includes('name')) return answer
    short = true
    return postPet(ctx, 'spec.create.created', JSON.stringify({ name: name(n), ...fields }))
  }
  const withUnknown = await create(1, { categoryId: 1, verifyProbe: true })
  if (withUnknown === undefined) return
  let created = withUnknown
  if (withUnknown.status === 201) {
    recordGap(
      ctx,
      'unknownFields',
      'ignore',
      true,
      'A NewPet with the unknown field "verifyProbe" is answered 201.',
    )
  } else {
    const plain = await create(1, { categoryId: 1 })
    if (plain === undefined) return
    created = plain
    if (plain.status === 201 && withUnknown.status === 400) {
      sight(ctx, 'POST /pets with an unknown field', 'validation_failed', 400, withUnknown)
      const named = detailFields(withUnknown).includes('verifyProbe')
      recordGap(
        ctx,
        'unknownFields',
        'reject',
        true,
        `A NewPet with the unknown field "verifyProbe" is answered 400${named ? ', naming it' : ''}; without it, 201.`,
      )
    } else {
      recordGap(
        ctx,
        'unknownFields',
        undefined,
        false,
        'No valid NewPet was accepted: unknown fields cannot be told apart.',
      )
    }
  }
  const pet = created.json as { id?: unknown; status?: unknown } | undefined
  if (created.status === 201) {
    recordGap(
      ctx,
      'defaultStatus',
      typeof pet?.status === 'string' ? pet.status : '(omitted)',
      typeof pet?.status === 'string',
      `A pet created without status has ${typeof pet?.status === 'string' ? `status "${pet.status}"` : 'no status'}.`,
    )
  }
  const pending: PetStatus = 'pending'
  const second = await postPet(
    ctx,
    'spec.create.created',
    JSON.stringify({ name: name(2), categoryId: 2, status: pending }),
  )
  const pass = created.status === 201 && second?.status === 201
  recordCheck(ctx, 'spec.create.created', {
    pass,
    observed: `${describeAnswer(created)}${second === undefined ? '' : `; ${describeAnswer(second)}`}`,
    expected: '201 with the created Pet, twice (without and with status)',
    message: pass
      ? 'Valid NewPets are answered 201 with the created Pet.'
      : `A valid NewPet is answered ${created.status === 201 ? second?.status : created.status}, not 201.`,
  })

  await runProbes(ctx, 'spec.create.missing-fields', missingFieldProbes(name(3)))
  await runProbes(ctx, 'spec.create.invalid-values', wrongTypeProbes(name(3)))
  const malformed = await postPet(ctx, 'spec.create.malformed-json', '{"name":')
  expect400(ctx, 'spec.create.malformed-json', 'POST /pets with a body that is not JSON', malformed)
  sight(ctx, 'POST /pets with a body that is not JSON', 'malformed_json', 400, malformed)
  const plainText = await postPet(
    ctx,
    'spec.create.content-type',
    JSON.stringify({ name: name(4), categoryId: 1 }),
    'text/plain',
  )
  expect400(ctx, 'spec.create.content-type', 'POST /pets sent as text/plain', plainText)
  sight(ctx, 'POST /pets sent as text/plain', 'invalid_content_type', 400, plainText)
}
