import { createHash } from 'node:crypto'

/** A Lua script run by EVALSHA (EVAL when Redis has not cached it yet). */
export interface RedisScript {
  /** Its name in benchmarks and messages, e.g. `take`. */
  readonly name: string
  readonly lua: string
  readonly sha: string
}

const defined = new Map<string, string>()

/**
 * Declares a Lua script of the Redis state, next to the code that calls it.
 * Numbers go into Redis through '%.0f' (Lua 5.1's tostring writes 1.9e+12).
 *
 * @example
 * const NEXT = defineScript('next', "return redis.call('INCR', KEYS[1])")
 */
export const defineScript = (name: string, lua: string): RedisScript => {
  const sha = createHash('sha1').update(lua).digest('hex')
  defined.set(sha, name)
  return { name, lua, sha }
}

/**
 * Every script declared so far, by SHA-1: what the benchmark uses to name the
 * commands it counts with MONITOR.
 *
 * @example
 * scriptNames().get(sha) // 'take'
 */
export const scriptNames = (): ReadonlyMap<string, string> => defined
