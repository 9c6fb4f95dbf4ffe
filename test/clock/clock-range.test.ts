import { describe, expect, it } from 'vitest'
import { createClock } from '../../src/clock/clock.js'

// Regression: POST /__sandbox/clock {"advanceMs": 1e308} made every request 500 until a reset.
const MAX_DATE_MS = 8.64e15

describe('the sandbox clock stays inside the Date range', () => {
  it.each([1e308, MAX_DATE_MS])(
    'refuses to advance by %d past the range, with a TypeError, and keeps its time',
    (ms) => {
      const clock = createClock({ source: () => 0 })
      clock.set(1_000)
      expect(() => clock.advance(ms)).toThrow(TypeError)
      expect(() => clock.advance(ms)).toThrow(/Date range/)
      expect(clock.now()).toBe(1_000)
    },
  )

  it.each([MAX_DATE_MS + 1, -MAX_DATE_MS - 1, Number.MAX_VALUE])(
    'refuses to be set to %d epoch milliseconds',
    (ms) => {
      const clock = createClock({ source: () => 0 })
      expect(() => clock.set(ms)).toThrow(TypeError)
      expect(clock.frozen).toBe(false)
    },
  )

  it('accepts the edges of the range exactly', () => {
    const clock = createClock({ source: () => 0 })
    clock.set(MAX_DATE_MS)
    expect(new Date(clock.now()).toISOString()).toBe('+275760-09-13T00:00:00.000Z')
    clock.set(-MAX_DATE_MS)
    clock.advance(0)
    expect(clock.now()).toBe(-MAX_DATE_MS)
  })
})
