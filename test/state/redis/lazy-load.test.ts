import { afterAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from '../../server/spawn-cli.js'

// Without --store, nothing Redis-related is loaded: a module hook reports
// every specifier resolved, and neither the Redis state nor its client is among them.
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  if (/ioredis|create-redis-state/.test(specifier)) process.stderr.write('LOADED ' + specifier + '\\\\n')
  return next(specifier, context)
}\`))
`)}`

afterAll(() => killAllChildren())

describe('start-up without --store', () => {
  it.each(['source', 'bundle'] as const)(
    'loads neither the Redis state nor ioredis (%s), and does with --store',
    async (entry) => {
      const run = spawnCli(['--port', '0', '--quiet'], { NODE_OPTIONS: `--import=${HOOK}` }, entry)
      const origin = await serverOrigin(run)
      const answer = await fetch(`${origin}/v1/pets`, {
        headers: { authorization: 'Bearer sandbox-free' },
      })
      expect(answer.status).toBe(200)
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(0)
      expect(run.stderr()).not.toContain('LOADED')
      // The hook does see them when a store is asked for (so the check above can fail).
      const withStore = spawnCli(
        ['--port', '0', '--store', 'redis://127.0.0.1:1/0'],
        { NODE_OPTIONS: `--import=${HOOK}` },
        entry,
      )
      expect(await withStore.exited).toBe(1)
      expect(withStore.stderr()).toContain('LOADED')
    },
  )
})
