import type { Sticky } from '../../scenarios/timeline.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'

/**
 * When a timeline started in a session: the first caller's moment, kept in
 * the session's `tl` hash until its reset (clear() deletes it). ARGV: prefix,
 * sid, name, now. Returns the start.
 */
const TIMELINE_START_SCRIPT = defineScript(
  'timeline-start',
  `${PRELUDE}
if redis.call('HSETNX', T .. 'tl', ARGV[3], ARGV[4]) == 1 then return ARGV[4] end
return redis.call('HGET', T .. 'tl', ARGV[3])
`,
)

/**
 * The start of a timeline met without a start of its own (per request, by a
 * key, as the start scenario), the same for every instance: the first one to
 * ask sets it.
 *
 * @example
 * const since = await readTimelineStart(ctx, 'default', 'outage', now)
 */
export const readTimelineStart = async (
  ctx: RedisStateContext,
  sid: string,
  name: string,
  now: number,
): Promise<number> => {
  const { connection } = ctx
  const reply = await connection.write(TIMELINE_START_SCRIPT, sessionKey(connection.prefix, sid), [
    sid,
    name,
    String(Math.floor(now)),
  ])
  return Number(reply)
}

/**
 * The sticky scenario as the session's meta hash keeps it: a name as it is,
 * a timeline as JSON (no scenario name starts with `{`).
 *
 * @example
 * encodeSticky('slow') // 'slow'
 */
export const encodeSticky = (sticky: Sticky): string =>
  typeof sticky === 'string' ? sticky : JSON.stringify(sticky)

/**
 * The sticky scenario read back from the meta hash.
 *
 * @example
 * decodeSticky('slow') // 'slow'
 */
export const decodeSticky = (stored: string): Sticky =>
  stored.startsWith('{') ? (JSON.parse(stored) as Sticky) : stored
