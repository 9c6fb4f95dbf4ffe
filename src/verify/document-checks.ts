import type { Observed } from './probe-runner.js'
import { objectParts, sampleValue, wrongValue } from './sample-value.js'
import { describeAnswer, probe, recordCheck, type VerifyContext } from './verify-context.js'
import type { DocumentOperation } from './verify-types.js'

/** The most write probes of the document per run (two per write operation, a few operations). */
const MAX_WRITE_OPERATIONS = 5

const encode = (value: unknown): string =>
  encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))

/** The path and query of a request to `op`, its path parameters from `ids` or sampled. */
const requestPath = (
  op: DocumentOperation,
  ids: ReadonlyMap<string, unknown>,
): { path: string; guessed: boolean } => {
  let guessed = false
  let path = op.path
  const query: string[] = []
  for (const p of op.parameters) {
    if (p.in === 'path') {
      const known = op.collection === undefined ? undefined : ids.get(op.collection.path)
      if (known === undefined) guessed = true
      path = path.replace(`{${p.name}}`, encode(known ?? sampleValue(p.schema)))
    } else if (p.in === 'query' && p.required) {
      query.push(`${encodeURIComponent(p.name)}=${encode(sampleValue(p.schema))}`)
    }
  }
  return { path: query.length === 0 ? path : `${path}?${query.join('&')}`, guessed }
}

const headersOf = (op: DocumentOperation): Record<string, string> =>
  Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'header' && p.required)
      .map((p) => [p.name.toLowerCase(), String(sampleValue(p.schema))]),
  )

/** The first record's id of a list answer, for the collection's item operations. */
const firstId = (op: DocumentOperation, answer: Observed): unknown => {
  if (op.collection === undefined || !Array.isArray(answer.json)) return undefined
  const [first] = answer.json as unknown[]
  if (typeof first !== 'object' || first === null) return undefined
  const { idField } = op.collection
  const item = first as Record<string, unknown>
  return Object.hasOwn(item, idField) ? item[idField] : undefined
}

/**
 * `spec.document.reads`: every GET operation of the document is called once
 * (lists first, so that an item's id is one the target listed; otherwise the
 * id is made from its schema) and must answer 2xx, or 404 for an id verify
 * had to make up. Each answer is checked against the document by the probe
 * runner (`spec.document.status`, `spec.document.body`).
 */
const runReads = async (
  ctx: VerifyContext,
  ops: readonly DocumentOperation[],
): Promise<Map<string, unknown>> => {
  const reads = ops
    .filter((op) => op.method === 'GET')
    .sort((a, b) => Number(b.role === 'list') - Number(a.role === 'list'))
  const ids = new Map<string, unknown>()
  const failures: string[] = []
  let sent = 0
  for (const op of reads) {
    const { path, guessed } = requestPath(op, ids)
    const answer = await probe(ctx, 'spec.document.reads', op.id, {
      method: 'GET',
      path,
      headers: headersOf(op),
    })
    if (answer === undefined) break
    sent++
    const id = firstId(op, answer)
    if (op.role === 'list' && id !== undefined && op.collection !== undefined)
      ids.set(op.collection.path, id)
    const ok = (answer.status >= 200 && answer.status < 300) || (guessed && answer.status === 404)
    if (!ok) failures.push(`${op.id} (GET ${path}) answered ${describeAnswer(answer)}`)
  }
  if (sent === 0) return ids
  recordCheck(ctx, 'spec.document.reads', {
    pass: failures.length === 0,
    observed:
      failures.length === 0 ? `${sent} of ${sent} answered 2xx` : `${failures.length} did not`,
    expected: 'each GET operation of the document answered 2xx (404 for a made-up id)',
    message:
      failures.length === 0
        ? `Every GET operation of the document it could call (${sent}) is answered.`
        : `${failures.join('; ')}.`,
  })
  return ids
}

interface WriteProbe {
  op: DocumentOperation
  what: string
  path: string
  body: unknown
}

/** For each write operation whose body has a required field: that field missing, and of the wrong type. */
const writeProbes = (
  ops: readonly DocumentOperation[],
  ids: ReadonlyMap<string, unknown>,
): { missing: WriteProbe[]; wrong: WriteProbe[] } => {
  const missing: WriteProbe[] = []
  const wrong: WriteProbe[] = []
  for (const op of ops) {
    if (op.method === 'GET' || op.method === 'DELETE' || op.body === undefined) continue
    const { properties, required } = objectParts(op.body.schema)
    const [field] = required
    if (field === undefined) continue
    const { path, guessed } = requestPath(op, ids)
    // An item's id verify made up could be a 404 before the body is read: not probed.
    if (guessed) continue
    const valid = sampleValue({ ...op.body.schema, type: 'object' }) as Record<string, unknown>
    const others = Object.fromEntries(Object.entries(valid).filter(([name]) => name !== field))
    const bad = wrongValue((Object.hasOwn(properties, field) ? properties[field] : undefined) ?? {})
    missing.push({ op, what: `${op.method} ${path} without ${field}`, path, body: others })
    if (bad !== undefined)
      wrong.push({
        op,
        what: `${op.method} ${path} with ${field} ${JSON.stringify(bad)}`,
        path,
        body: { ...valid, [field]: bad },
      })
    if (missing.length >= MAX_WRITE_OPERATIONS) break
  }
  return { missing, wrong }
}

/** Sends a check's write probes; it passes when each is answered 400. */
const runWrites = async (ctx: VerifyContext, id: string, probes: WriteProbe[]): Promise<void> => {
  const failures: string[] = []
  let sent = 0
  for (const p of probes) {
    const answer = await probe(ctx, id, p.op.id, {
      method: p.op.method,
      path: p.path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(p.body),
    })
    if (answer === undefined) break
    sent++
    if (answer.status !== 400)
      failures.push(
        `${p.what} is answered ${answer.status}, not 400${answer.status >= 200 && answer.status < 300 ? ' (it may have changed a record: look at it)' : ''}`,
      )
  }
  if (sent === 0) return
  recordCheck(ctx, id, {
    pass: failures.length === 0,
    observed:
      failures.length === 0 ? `${sent} of ${sent} answered 400` : `${failures.length} did not`,
    expected: '400 with an Error body',
    message:
      failures.length === 0
        ? `${probes.map((p) => p.what).join('; ')}: each answered 400.`
        : `${failures.join('; ')}.`,
  })
}

/**
 * The checks of an OpenAPI document's operations (contract §20): the reads,
 * and with `allowWrites` each write operation's body with its first required
 * field missing (`spec.document.missing-fields`) and of the wrong type
 * (`spec.document.invalid-values`), which a target that keeps its document
 * refuses with 400 (so nothing is created).
 *
 * @example
 * await runDocumentChecks(ctx, operations)
 */
export const runDocumentChecks = async (
  ctx: VerifyContext,
  ops: readonly DocumentOperation[],
): Promise<void> => {
  // Item writes (PUT, PATCH /things/{id}) use an id the target listed.
  const ids = await runReads(ctx, ops)
  if (!ctx.allowWrites) return
  const { missing, wrong } = writeProbes(ops, ids)
  await runWrites(ctx, 'spec.document.missing-fields', missing)
  await runWrites(ctx, 'spec.document.invalid-values', wrong)
}
