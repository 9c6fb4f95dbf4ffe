import { describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../../src/rate-limit/rate-limiter.js'
import { createRateSeries } from '../../../src/server/dashboard/create-rate-series.js'
import { maskKey } from '../../../src/server/dashboard/mask-key.js'

describe('createRateSeries', () => {
  it('counts answers per second and class, and forgets seconds older than its window', () => {
    let now = 1_000_000_000_000
    const series = createRateSeries({ seconds: 5, now: () => now })
    series.count('2xx')
    series.count('2xx')
    series.count('429')
    now += 2_000
    series.count('none')
    const read = series.read()
    expect(read.end).toBe(1_000_000_002)
    expect(read.counts['2xx']).toEqual([0, 0, 2, 0, 0])
    expect(read.counts['429']).toEqual([0, 0, 1, 0, 0])
    expect(read.counts.none).toEqual([0, 0, 0, 0, 1])
    now += 4_000
    expect(series.read().counts['2xx']).toEqual([0, 0, 0, 0, 0])
    expect(series.read().counts.none).toEqual([1, 0, 0, 0, 0])
    now += 60_000
    expect(series.read().counts.none).toEqual([0, 0, 0, 0, 0])
  })
})

describe('limiter.snapshot', () => {
  const limits = { perMinute: 2, perDay: 10 }
  const noon = Date.parse('2030-01-01T12:00:00Z')

  it('reads the current windows without counting, and shows an ended window as empty', () => {
    const limiter = createRateLimiter({ banAfter: 1, banMinutes: 1 })
    const take = (now: number) => limiter.take({ bucket: 'key:k', limits, now, bannable: true })
    take(noon)
    expect(limiter.snapshot(noon)).toEqual([
      { bucket: 'key:k', minuteUsed: 1, dayUsed: 1, bannedUntil: undefined },
    ])
    expect(limiter.snapshot(noon)[0]?.minuteUsed).toBe(1)
    expect(limiter.snapshot(noon + 60_000)[0]).toMatchObject({ minuteUsed: 0, dayUsed: 1 })
    take(noon)
    take(noon)
    take(noon) // the second refusal bans (banAfter 1)
    expect(limiter.snapshot(noon)[0]?.bannedUntil).toBe(noon + 60_000)
    expect(limiter.snapshot(noon + 60_000)[0]?.bannedUntil).toBeUndefined()
  })
})

describe('maskKey', () => {
  it('shows demo and option keys in full and generated keys by a prefix', () => {
    expect(maskKey({ key: 'sandbox-free', source: 'demo' })).toBe('sandbox-free')
    expect(maskKey({ key: 'my-key', source: 'options' })).toBe('my-key')
    expect(maskKey({ key: 'sk_sandbox_0123456789abcdef', source: 'runtime' })).toBe(
      'sk_sandbox_0123…',
    )
    expect(maskKey({ key: 'abcdefgh', source: 'runtime' })).toBe('abcd…')
  })
})
