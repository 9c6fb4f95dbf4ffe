import { describe, expect, it } from 'vitest'
import type { PlanLimits } from '../../src/contract/plans.js'
import { anonymousBucketName } from '../../src/rate-limit/anonymous-bucket-name.js'
import {
  ANONYMOUS_BUCKET_CAP,
  createRateLimiter,
  type RateLimiter,
} from '../../src/rate-limit/rate-limiter.js'

// Issue 10 point 10: anonymous buckets grew without bound within a day (IPv6 made it endless).
const NOON = Date.parse('2030-01-01T12:00:00.000Z')
const FREE: PlanLimits = { perMinute: 60, perDay: 1_000 }
const anon = (limiter: RateLimiter, address: string) =>
  limiter.take({ bucket: `anon:${address}`, limits: FREE, now: NOON, bannable: false })
const remaining = (limiter: RateLimiter, address: string) =>
  Number(anon(limiter, address).headers['X-RateLimit-Remaining'])

describe('the anonymous buckets', () => {
  it('are capped at 10,000 by default, whatever the number of addresses', () => {
    expect(ANONYMOUS_BUCKET_CAP).toBe(10_000)
    const limiter = createRateLimiter()
    for (let i = 0; i < 25_000; i++)
      anon(limiter, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
    expect(limiter.size).toBe(10_000)
  })

  it('evict the least recently used first, and never a key bucket', () => {
    const limiter = createRateLimiter({ maxAnonymousBuckets: 3 })
    limiter.take({ bucket: 'key:k', limits: FREE, now: NOON, bannable: true })
    expect(remaining(limiter, '192.0.2.1')).toBe(59)
    expect(remaining(limiter, '192.0.2.2')).toBe(59)
    expect(remaining(limiter, '192.0.2.3')).toBe(59)
    expect(remaining(limiter, '192.0.2.1')).toBe(58) // .1 is now the most recent
    expect(remaining(limiter, '192.0.2.4')).toBe(59) // evicts .2, the oldest
    expect(limiter.size).toBe(4)
    expect(remaining(limiter, '192.0.2.1')).toBe(57)
    expect(remaining(limiter, '192.0.2.2')).toBe(59) // fresh: it was evicted
    const key = limiter.take({ bucket: 'key:k', limits: FREE, now: NOON, bannable: true })
    expect(key.headers['X-RateLimit-Remaining']).toBe('58')
  })

  it('group IPv6 addresses by /64, so one client cannot take endless buckets', () => {
    const limiter = createRateLimiter()
    expect(remaining(limiter, '2001:db8:1:2::1')).toBe(59)
    expect(remaining(limiter, '2001:db8:1:2:ffff:aaaa:bbbb:cccc')).toBe(58)
    expect(remaining(limiter, '2001:0DB8:0001:0002:0:0:0:9')).toBe(57)
    expect(remaining(limiter, '2001:db8:1:3::1')).toBe(59)
    expect(limiter.size).toBe(2)
  })

  it.each([
    ['2001:db8:1:2::1', 'anon:2001:db8:1:2::/64'],
    ['::1', 'anon:0:0:0:0::/64'],
    ['fe80::1%eth0', 'anon:fe80:0:0:0::/64'],
    ['::ffff:203.0.113.7', 'anon:203.0.113.7'],
    ['203.0.113.7', 'anon:203.0.113.7'],
    ['shared', 'anon:shared'],
  ])('names the bucket of %s %s', (address, name) => {
    expect(anonymousBucketName(`anon:${address}`)).toBe(name)
  })
})
