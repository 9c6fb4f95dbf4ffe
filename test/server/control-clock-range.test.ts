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
