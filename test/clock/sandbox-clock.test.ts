import { afterEach, describe, expect, it, vi } from 'vitest'
import { createClock } from '../../src/clock/clock.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('the sandbox clock', () => {
  it('follows its time source until it is set', () => {
    let source = 1_000
    const clock = createClock({ source: () => source })
    expect(clock.now()).toBe(1_000)
    source = 2_000
    expect(clock.now()).toBe(2_000)
    expect(clock.frozen).toBe(false)
  })

  it('stays frozen once set, whatever the time source does', () => {
    let source = 1_000
    const clock = createClock({ source: () => source })
    clock.set('2030-01-01T00:00:00Z')
    source = 999_999
    expect(clock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'))
    expect(clock.frozen).toBe(true)
  })

  it('advances from the time source and then stays frozen', () => {
    let source = 1_000
    const clock = createClock({ source: () => source })
    clock.advance(500)
    source = 5_000
    expect(clock.now()).toBe(1_500)
    clock.advance(0)
    expect(clock.now()).toBe(1_500)
  })

  it('refuses a negative advance and stays where it was: back is a set (regression: advance(-1000) moved it back)', () => {
    const clock = createClock({ source: () => 1_000 })
    clock.set(5_000)
    expect(() => clock.advance(-100)).toThrow(
      'Failed to advance the sandbox clock by -100 ms: it only moves forward. To go back, set it to an earlier time.',
    )
    expect(clock.now()).toBe(5_000)
    clock.set(4_900)
    expect(clock.now()).toBe(4_900)
  })

  it('accepts a Date, epoch milliseconds and an ISO string', () => {
    const clock = createClock()
    clock.set(new Date('2030-12-05T00:00:00Z'))
    expect(clock.now()).toBe(Date.UTC(2030, 11, 5))
    clock.set(0)
    expect(clock.now()).toBe(0)
    clock.set('2030-12-05T00:00:00.001Z')
    expect(clock.now()).toBe(Date.UTC(2030, 11, 5) + 1)
  })

  it('follows the time source again after useRealTime', () => {
    const clock = createClock({ source: () => 42 })
    clock.set(0)
    clock.useRealTime()
    expect(clock.now()).toBe(42)
    expect(clock.frozen).toBe(false)
  })

  it('rejects a date it cannot read with a clear message', () => {
    const clock = createClock()
    expect(() => clock.set('next tuesday')).toThrow(/Failed to set the sandbox clock/)
    expect(() => clock.advance(Number.NaN)).toThrow(/Failed to advance the sandbox clock/)
    expect(clock.frozen).toBe(false)
  })
})

describe('the sandbox clock under vitest fake timers', () => {
  it('follows vi.setSystemTime while it is not frozen', () => {
    const clock = createClock() // created before the fake timers: it reads Date.now on each call
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2030-06-01T12:00:00Z'))
    expect(clock.now()).toBe(Date.parse('2030-06-01T12:00:00Z'))
  })

  it('moves with vi.advanceTimersByTime while it is not frozen', () => {
    vi.useFakeTimers({ now: new Date('2030-06-01T12:00:00Z') })
    const clock = createClock()
    vi.advanceTimersByTime(61_000)
    expect(clock.now()).toBe(Date.parse('2030-06-01T12:01:01Z'))
  })

  it('ignores the fake timers once set, and follows them again after useRealTime', () => {
    vi.useFakeTimers({ now: new Date('2030-06-01T12:00:00Z') })
    const clock = createClock()
    clock.set('2031-01-01T00:00:00Z')
    vi.advanceTimersByTime(60_000)
    expect(clock.now()).toBe(Date.parse('2031-01-01T00:00:00Z'))
    clock.useRealTime()
    expect(clock.now()).toBe(Date.parse('2030-06-01T12:01:00Z'))
  })
})
