import { describe, expect, it } from 'vitest'
import { LIMITS, PLAN_LIMITS } from '../../src/contract/index.js'

// The numbers the spec and the sandbox contract write down, pinned once: the
// conformance suite reads LIMITS, so a wrong constant would pass it everywhere.
describe('the contract limits', () => {
  it('are the spec’s list bounds: limit from 1 to 100, default 20', () => {
    expect([LIMITS.listLimitMin, LIMITS.listLimitDefault, LIMITS.listLimitMax]).toEqual([
      1, 20, 100,
    ])
  })

  it('are the contract’s name bounds (1 to 100 code points), id bound (2^53 - 1) and body cap (64 KiB)', () => {
    expect([LIMITS.nameMinCodePoints, LIMITS.nameMaxCodePoints]).toEqual([1, 100])
    expect(LIMITS.maxId).toBe(2 ** 53 - 1)
    expect(LIMITS.maxBodyBytes).toBe(65_536)
  })

  it('are the spec’s plans: 60/1,000, 300/10,000, 1,000/100,000 per minute and day', () => {
    expect(PLAN_LIMITS.free).toEqual({ perMinute: 60, perDay: 1_000 })
    expect(PLAN_LIMITS.pro).toEqual({ perMinute: 300, perDay: 10_000 })
    expect(PLAN_LIMITS.business).toEqual({ perMinute: 1_000, perDay: 100_000 })
  })
})
