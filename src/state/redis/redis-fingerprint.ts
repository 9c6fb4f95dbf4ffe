import { createHash } from 'node:crypto'
import type { Pet } from '../../contract/pet.js'
import { defineScript } from './redis-script.js'

/** The sandbox's fingerprint (its seeded pets), set by the first instance. ARGV: prefix, fingerprint. */
const CONFIG_SCRIPT = defineScript(
  'config',
  `
local key = ARGV[1] .. 'config'
local current = redis.call('HGET', key, 'seeded')
if not current then
  redis.call('HSET', key, 'seeded', ARGV[2])
  return ARGV[2]
end
return current
`,
)

/**
 * Records the seeded pets' fingerprint when the store has none, and says
 * whether the store's matches: instances started with another `--seed` or
 * `--pets` on the same prefix must not share it.
 *
 * @example
 * if (!(await claimFingerprint(connection, { seed, pets: seeded }))) throw new Error('…')
 */
export const claimFingerprint = async (
  connection: { run(script: typeof CONFIG_SCRIPT, args: (string | number)[]): Promise<unknown> },
  input: { seed: number; pets: readonly Pet[] },
): Promise<boolean> => {
  const fingerprint = createHash('sha1')
    .update(JSON.stringify({ seed: input.seed, pets: input.pets }))
    .digest('hex')
  return (await connection.run(CONFIG_SCRIPT, [fingerprint])) === fingerprint
}
