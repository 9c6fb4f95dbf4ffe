import { describe, expect, it } from 'vitest'
import { createSandboxCore } from '../../src/index.js'

const request = {
  method: 'GET',
  url: 'https://api.example.test/v1/pets?limit=1',
  headers: { authorization: 'Bearer sandbox-free' },
}

// Issue 31, item 15: reset() empties the journal and numbers on (docs/control-api.md), as the
// Redis store does (test/state/redis/journal-bounds.test.ts): a seq is never reused.
describe('the journal seq', () => {
  it('numbers on across reset() and journal.clear(): a seq noted before never names a later request', async () => {
    const sandbox = createSandboxCore()
    await sandbox.handle(request)
    await sandbox.handle(request)
    expect(sandbox.journal.list().map((e) => e.seq)).toEqual([1, 2])
    await sandbox.reset()
    expect(sandbox.journal.list()).toEqual([])
    await sandbox.handle(request)
    expect(sandbox.journal.list().map((e) => e.seq)).toEqual([3])
    sandbox.journal.clear()
    await sandbox.handle(request)
    expect(sandbox.journal.list().map((e) => e.seq)).toEqual([4])
  })
})
