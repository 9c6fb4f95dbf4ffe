import { stickyName } from '../../scenarios/timeline.js'
import { DEFAULT_SESSION, type SessionSummary } from '../sandbox-state.js'
import { PRELUDE, sessionKey } from './lua-prelude.js'
import type { RedisRegistry } from './redis-registry.js'
import { defineScript } from './redis-script.js'
import type { RedisStateContext } from './redis-state-context.js'
import { decodeSticky } from './redis-timeline-start.js'

/** A session as listings show it: {sticky, journalCount, createdPets, lastUsed}, false when gone. ARGV: prefix, sid. */
const SUMMARY_SCRIPT = defineScript(
  'summary',
  `${PRELUDE}
local m = redis.call('HMGET', META, 'sticky', 'jcleared', 'used')
if not m[1] then return false end
return {m[1], redis.call('ZCOUNT', T .. 'journal', '(' .. m[2], '+inf'),
  redis.call('LLEN', T .. 'st:default'), m[3]}
`,
)

/**
 * Every live session as `GET /__sandbox/sessions` shows it: the registry's
 * ids, each read in its own slot, `default` first, then least recently used
 * first (as in memory). A registered session whose data went (an idle drop
 * raced a use) leaves the registry.
 *
 * @example
 * const sessions = await listRedisSessions(ctx, registry)
 */
export const listRedisSessions = async (
  ctx: RedisStateContext,
  registry: Pick<RedisRegistry, 'list' | 'release'>,
): Promise<SessionSummary[]> => {
  const { connection } = ctx
  const ids = await registry.list()
  const rows = await Promise.all(
    ids.map(
      async (id) =>
        [id, await connection.run(SUMMARY_SCRIPT, sessionKey(connection.prefix, id), [id])] as [
          string,
          [string, number, number, string] | null,
        ],
    ),
  )
  const summaries: (SessionSummary & { used: number })[] = []
  for (const [id, row] of rows) {
    if (row === null) {
      registry.release(id, [], true).catch(() => {})
      continue
    }
    const [scenario, requests, created, used] = row
    summaries.push({
      id,
      pets: ctx.petCount + created,
      scenario: stickyName(decodeSticky(scenario)),
      requests: Math.min(requests, ctx.journalSize),
      lastUsed: new Date(Number(used)).toISOString(),
      used: Number(used),
    })
  }
  summaries.sort((a, b) => a.used - b.used)
  const ordered = [
    ...summaries.filter((s) => s.id === DEFAULT_SESSION),
    ...summaries.filter((s) => s.id !== DEFAULT_SESSION),
  ]
  return ordered.map(({ used: _used, ...summary }) => summary)
}
