import * as z from 'zod/mini'
import type * as core from 'zod/v4/core'

const isObject = (input: unknown): input is Record<string, unknown> =>
  typeof input === 'object' && input !== null && !Array.isArray(input)

// Marks what the inner schema has no words for, so that the outer parse words it.
const UNSET_MESSAGE = '\u0000unset'
const UNSET = { error: () => UNSET_MESSAGE }

/**
 * A JSON object keyed by ids (session ids, key names), parsed into a Map. Unlike
 * `z.record`, which writes its output into a plain object and so loses a
 * `__proto__` key, it keeps every own key the input has: `__proto__`,
 * `constructor`, `toString`, `.` and `..` are ids like any other (issue 24).
 * Problems name the key in their path, as `z.record` does.
 *
 * @example
 * const Sessions = ownRecord(z.string(), z.number())
 * z.parse(Sessions, JSON.parse('{"__proto__": 1}')).get('__proto__') // 1
 */
export const ownRecord = <V extends core.$ZodType>(
  key: core.$ZodType<string, string>,
  value: V,
  params: { error: string } = { error: 'must be an object' },
): z.ZodMiniType<Map<string, core.output<V>>, Record<string, core.input<V>>> =>
  z.pipe(
    z.custom<Record<string, core.input<V>>>(isObject, params),
    z.transform((input, ctx) => {
      const out = new Map<string, core.output<V>>()
      for (const [name, item] of Object.entries(input)) {
        const checkedKey = z.safeParse(key, name)
        if (!checkedKey.success) {
          for (const issue of checkedKey.error.issues)
            ctx.issues.push({ code: 'custom', message: issue.message, input: name, path: [name] })
          continue
        }
        const checked = z.safeParse(value, item, UNSET)
        if (!checked.success) {
          // Each issue as it is (its code, bounds, expected type), below the name. A message the
          // schema did not write is left to the outer parse, whose words (or per-parse error
          // map: describeIssue's) then apply, as they would to a field of a plain object.
          for (const issue of checked.error.issues)
            ctx.issues.push({
              ...issue,
              message: issue.message === UNSET_MESSAGE ? undefined : issue.message,
              input: item,
              path: [name, ...issue.path],
            } as core.$ZodRawIssue)
          continue
        }
        out.set(name, checked.data as core.output<V>)
      }
      return out
    }),
  )
