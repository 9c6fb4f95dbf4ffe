import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpTarget } from '../conformance/targets/http-target.js'

const target = createHttpTarget()
beforeAll(() => target.start())
afterAll(() => target.stop())

const postClock = (body: unknown) =>
  fetch(`${target.origin}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describe('POST /__sandbox/clock outside the Date range', () => {
  it.each([{ advanceMs: 1e308 }, { advanceMs: -1e308 }, { advanceMs: 8.64e15 }])(
    'answers 400 validation_failed to %j, and every request still works',
    async (body) => {
      await target.control('POST', '/clock', { now: '2030-01-01T00:00:00Z' })
      const answer = await postClock(body)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toMatchObject({ code: 'validation_failed', status: 400 })
      expect(await target.control('GET', '/clock')).toEqual({
        now: '2030-01-01T00:00:00.000Z',
        frozen: true,
      })
      const pets = await target.send({
        method: 'GET',
        path: '/pets',
        headers: { authorization: 'Bearer sandbox-free' },
      })
      expect(pets.status).toBe(200)
    },
  )
})

describe('POST /__sandbox/clock moves forward only', () => {
  it.each([
    [
      { advanceMs: -1000 },
      'must be 0 or more: the clock only moves forward (send "now" to set an earlier time), got the number -1000',
    ],
    [{ advanceMs: 1.5 }, 'must be a whole number of milliseconds, got the number 1.5'],
    [
      { advanceMs: 1e20 },
      'must be at most 8640000000000000 (the Date range, about 273,790 years), got the number 100000000000000000000',
    ],
  ])(
    'answers 400 validation_failed naming advanceMs to %j, and the clock stays (regression: a negative advance moved it back)',
    async (body, message) => {
      await target.control('POST', '/clock', { now: '2030-01-01T00:00:00Z' })
      const answer = await postClock(body)
      expect(answer.status).toBe(400)
      expect(await answer.json()).toEqual({
        code: 'validation_failed',
        status: 400,
        message: `The clock change is invalid: advanceMs ${message}.`,
        details: [{ field: 'advanceMs', message }],
      })
      expect(await target.control('GET', '/clock')).toEqual({
        now: '2030-01-01T00:00:00.000Z',
        frozen: true,
      })
    },
  )

  it('goes back with "now", and forward by 0 or more', async () => {
    await target.control('POST', '/clock', { now: '2030-01-01T00:00:00Z' })
    await target.control('POST', '/clock', { now: '2029-12-31T23:59:59Z' })
    expect(await target.control('POST', '/clock', { advanceMs: 0 })).toMatchObject({
      now: '2029-12-31T23:59:59.000Z',
    })
    expect(await target.control('POST', '/clock', { advanceMs: 1000 })).toMatchObject({
      now: '2030-01-01T00:00:00.000Z',
    })
  })
})
