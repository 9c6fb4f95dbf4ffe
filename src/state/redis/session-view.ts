import { randomUUID } from 'node:crypto'
import {
  type ApiKeyInfo,
  type CreateKeyOptions,
  createKeyRegistry,
  KeyExistsError,
} from '../../auth/key-registry.js'
import { createClock } from '../../clock/clock.js'
import type { JournalEntry } from '../../journal/journal.js'
import type { TakeRequest } from '../../rate-limit/rate-limiter.js'
import { seededDraw } from '../../scenarios/seeded-draw.js'
import { startSticky, stickyName } from '../../scenarios/timeline.js'
import type { SessionState } from '../sandbox-state.js'
import { StaleStateError } from '../stale-state.js'
import type { RedisJournal } from './redis-journal.js'
import { countRequest, readQuotas } from './redis-limits.js'
import type { RedisPets } from './redis-pets.js'
import type { CachedSession, RedisSessions } from './redis-sessions.js'
import type { RedisStateContext } from './redis-state-context.js'
import { encodeSticky, readTimelineStart } from './redis-timeline-start.js'

/** The parts a session view is made of. */
export interface SessionViewParts {
  ctx: RedisStateContext
  sessions: RedisSessions
  pets: RedisPets
  journal: RedisJournal
}

/**
 * One session as one request (or one control call) sees it. In a request
 * (the pipeline calls `ready()` or `now()` first) reads come from the
 * instance's cache and the request's one round trip, `take`, checks them;
 * otherwise (the control API) every read is a fresh look into Redis.
 *
 * @example
 * const session = createSessionView(parts, 'default')
 * await session.ready()
 */
export const createSessionView = (parts: SessionViewParts, sid: string): SessionState => {
  const { ctx, sessions, pets, journal } = parts
  const { realNow, baseKeys } = ctx
  let inRequest = false
  let pv: string | undefined
  let seq: number | undefined
  /** The session's epoch the request was counted in (its journal entry is kept in that one only). */
  let epoch: string | undefined
  /** The request's position in its session (from its round trip) and the numbers it drew. */
  let position = 0
  let draws = 0
  const cached = (): CachedSession => sessions.entryOf(sid)

  const count = async (
    request: TakeRequest | (Omit<TakeRequest, 'bannable'> & { bannable?: undefined }),
    mode: 'take' | 'peek',
  ) => {
    const entry = cached()
    const { version } = entry
    const reply = await countRequest(ctx, { sid, version, request, mode })
    if (reply.stale !== undefined) {
      // Refreshed (or forgotten, when the session is gone: the retry opens it
      // again only if the request still selects it).
      sessions.apply(sid, reply.stale)
      throw new StaleStateError()
    }
    sessions.registry.touch(sid, ctx.realNow())
    pv = reply.pv
    seq = reply.seq
    epoch = version.slice(0, version.indexOf('/'))
    position = reply.position
    return reply.decision
  }

  return {
    id: sid,
    // Nothing to wait for: the pipeline awaits only what is pending (decision 0021).
    ready() {
      inRequest = true
    },
    now() {
      inRequest = true
      return cached().frozen ?? realNow()
    },
    lookupKey: (key) => sessions.lookup(cached(), key),
    take: (request) => count(request, 'take'),
    peek: async (request) => ({ headers: (await count(request, 'peek')).headers }),
    quotas: (now) => readQuotas(ctx, sid, now),
    sticky: () => (inRequest ? cached().sticky : sessions.refresh(sid).then((e) => e.sticky)),
    store: (scenario) => pets.store({ sid, entry: cached(), scenario, pv: () => pv }),
    // Not a stream per instance: the request's position in its session, counted
    // by Redis, decides, so every instance fails the same `flaky` requests.
    random: (scenario) => seededDraw(scenario.seed ?? ctx.seed, scenario.name, position, draws++),
    record(capture) {
      const number = seq
      seq = undefined
      return journal.record(sid, number, capture, number === undefined ? undefined : epoch)
    },
    markAborted: (record) => journal.markAborted(sid, record),
    timelineStart(name, now) {
      const entry = cached()
      const known = entry.starts.get(name)
      if (known !== undefined) return known
      return readTimelineStart(ctx, sid, name, now).then((start) => {
        // Kept only while the session is in the same epoch (a reset clears it in Redis too).
        if (sessions.cached(sid) === entry || sessions.cached(sid)?.epoch === entry.epoch)
          sessions.cached(sid)?.starts.set(name, start)
        return start
      })
    },
    async setSticky(value) {
      await sessions.control(sid, 'sticky', encodeSticky(value))
      ctx.emit('scenario', {
        session: sid,
        name: stickyName(value),
        ...(typeof value === 'string' ? {} : { timeline: value }),
      })
    },
    async clock() {
      const entry = await sessions.refresh(sid)
      return { now: entry.frozen ?? realNow(), frozen: entry.frozen !== undefined }
    },
    async setClock(time) {
      const clock = createClock({ source: realNow })
      clock.set(time)
      await sessions.control(sid, 'clock', clock.now())
      ctx.emit('clock', { session: sid, now: clock.now(), frozen: true })
    },
    async advanceClock(ms) {
      createClock({ source: realNow }).advance(ms)
      await sessions.control(sid, 'advance', ms, realNow())
      const entry = cached()
      ctx.emit('clock', { session: sid, now: entry.frozen ?? realNow(), frozen: true })
    },
    async useRealTime() {
      await sessions.control(sid, 'clock', '')
      ctx.emit('clock', { session: sid, now: realNow(), frozen: false })
    },
    async createKey(keyOptions: CreateKeyOptions) {
      // Checks the options and draws a key as the in-memory registry does.
      const info = createKeyRegistry(baseKeys, { session: sid, index: new Map() }).create(
        keyOptions,
      )
      const exists = () =>
        new KeyExistsError(
          `Failed to create key "${info.key}": it exists already. Revoke it first or choose another.`,
        )
      // The key index first (it lives apart from the session on a cluster):
      // a key exists once across sessions.
      if (!(await sessions.registry.claim(info.key, sid))) throw exists()
      const result = await sessions.control(sid, 'create-key', info.key, JSON.stringify(info))
      if (result === 'exists') throw exists()
      sessions.bind(info.key, sid)
      ctx.emit('keys', { session: sid, type: 'create', key: info })
      return info
    },
    async revokeKey(key) {
      const result = await sessions.control(sid, 'revoke-key', key, baseKeys.has(key) ? 1 : 0)
      if (result === 'none') return false
      const info =
        result === 'base'
          ? (baseKeys.get(key) as ApiKeyInfo)
          : (JSON.parse(result.slice(result.indexOf(' ') + 1)) as ApiKeyInfo)
      ctx.emit('keys', { session: sid, type: 'revoke', key: info })
      return true
    },
    async listKeys() {
      return sessions.keysOf(await sessions.refresh(sid))
    },
    listJournal: (): Promise<JournalEntry[]> => journal.list(sid),
    async clearJournal() {
      await sessions.control(sid, 'clear-journal')
    },
    petCount: () => pets.count(sid),
    async reset() {
      // A new epoch: every instance's copy of the session's pets goes.
      const start = startSticky(ctx.startScenario, ctx.startTimeline, realNow())
      await sessions.control(sid, 'reset', encodeSticky(start), randomUUID())
      await ctx.events.emit('reset', { session: sid }).catch(ctx.onError)
    },
  }
}
