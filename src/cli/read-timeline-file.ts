import { FILE_LIMITS, readTextFile } from '../files/read-text-file.js'
import type { TimelineSetting } from '../sandbox/resolve-sticky.js'
import { SETTING_SCHEMAS } from './setting-schemas.js'

/**
 * Reads `--timeline FILE`: JSON holding a list of phases
 * (`[{ "scenario": "unavailable", "forMs": 30000 }]`) or the body of
 * `PUT /__sandbox/scenario` (`{ "timeline": [...], "repeat": true }`). The
 * phases' scenario names are checked when the sandbox starts.
 *
 * @example
 * const timeline = readTimelineFile('outage.json', (message) => fail(2, message))
 */
export const readTimelineFile = (
  file: string,
  fail: (message: string) => never,
): TimelineSetting => {
  let value: unknown
  try {
    // A regular file of at most 1 MiB: never /dev/zero read to the end, nor a FIFO waited on.
    value = JSON.parse(readTextFile(file, FILE_LIMITS.timeline))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return fail(`Failed to read --timeline ${file}: ${reason}. Give a JSON file.`)
  }
  const result = SETTING_SCHEMAS.timeline.safeParse(value)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => issue.message).join('; ')
  return fail(`Failed to read --timeline ${file}: ${problems}.`)
}
