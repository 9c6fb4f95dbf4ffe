import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROXY_ERROR_PAGE } from '../../src/faults/proxy-error.js'
import { createSandboxServer } from '../../src/server/index.js'
import { rawExchange, requestText } from './raw-exchange.js'

// The eight faults of contract §19 as a raw TCP client sees them from the standalone server.
const app = createSandboxServer({ maxHoldMs: 5_000 })
let origin = ''
beforeAll(async () => {
  origin = (await app.listen(0, '127.0.0.1')).url
})
afterAll(() => app.close())

const whole = async (target: string) => rawExchange(origin, requestText('GET', target))
const lastEntry = () => {
  const entries = app.sandbox.journal.list()
  return entries[entries.length - 1]
}

describe('faults inside an answer, on the wire', () => {
  it('reset-mid-body sends the status line, the headers and half the body, then a TCP reset', async () => {
    const normal = await whole('/v1/pets')
    // The reset comes 100 ms after the bytes, so the client has read them: never a plain end
    // (wire-concurrency.test.ts holds it for clients at once).
    const seen = await whole('/v1/pets?__scenario=reset-mid-body')
    expect(seen.status).toBe(200)
    expect(seen.headers['content-length']).toBe(String(normal.body.byteLength))
    expect(seen.headers['x-ratelimit-limit']).toBeDefined()
    expect(seen.body.byteLength).toBe(Math.floor(normal.body.byteLength / 2))
    expect(seen.body.equals(normal.body.subarray(0, seen.body.byteLength))).toBe(true)
    expect(seen.end).toBe('reset')
    expect(lastEntry()).toMatchObject({ status: 200, fault: 'reset-mid-body', delivered: false })
  })

  it('truncated-body sends the whole body’s Content-Length and half the body, then a clean close (FIN)', async () => {
    const normal = await whole('/v1/pets')
    const seen = await whole('/v1/pets?__scenario=truncated-body')
    expect(seen.status).toBe(200)
    expect(seen.headers['content-length']).toBe(String(normal.body.byteLength))
    expect(seen.body.byteLength).toBe(Math.floor(normal.body.byteLength / 2))
    expect(seen.end).toBe('fin')
    expect(lastEntry()).toMatchObject({ fault: 'truncated-body', delivered: false })
  })

  it('stall-after-headers sends the head, then no byte for __delay ms, then destroys the connection', async () => {
    const seen = await whole('/v1/pets?__scenario=stall-after-headers&__delay=300')
    expect(seen.status).toBe(200)
    expect(Number(seen.headers['content-length'])).toBeGreaterThan(0)
    expect(seen.body.byteLength).toBe(0)
    expect(seen.ms).toBeGreaterThanOrEqual(290)
    expect(lastEntry()).toMatchObject({ fault: 'stall-after-headers', delivered: false })
  })

  it('slow-body sends the whole answer at __bandwidth bytes a second, a chunk at least every 100 ms', async () => {
    const normal = await whole('/v1/pets')
    const bandwidth = 8_000
    const seen = await whole(`/v1/pets?__scenario=slow-body&__bandwidth=${bandwidth}`)
    expect(seen.status).toBe(200)
    expect(seen.body.equals(normal.body)).toBe(true)
    const expectedMs = (normal.body.byteLength / bandwidth) * 1000
    expect(seen.ms).toBeGreaterThanOrEqual(expectedMs - 100)
    const gaps = seen.chunkTimes.slice(1).map((t, i) => t - (seen.chunkTimes[i] as number))
    // Timers on a busy machine run late; the server never waits longer than one tick on purpose.
    expect(Math.max(...gaps)).toBeLessThan(250)
    expect(seen.chunkTimes.length).toBeGreaterThanOrEqual(Math.floor(expectedMs / 100) - 1)
    expect(lastEntry()).toMatchObject({ fault: 'slow-body', delivered: true, aborted: false })
  })

  it('slow-body that the client gives up on is journaled aborted and not delivered', async () => {
    await rawExchange(origin, requestText('GET', '/v1/pets?__scenario=slow-body&__bandwidth=100'), {
      giveUpAfterBytes: 1,
    })
    await expect.poll(() => lastEntry()?.aborted).toBe(true)
    expect(lastEntry()).toMatchObject({ fault: 'slow-body', delivered: false })
  })

  it.each([['0'], ['10000001'], ['1.5'], ['abc'], ['-5'], [''], ['٣']])(
    'slow-body answers 400 invalid_parameter naming __bandwidth for %j',
    async (value) => {
      const seen = await whole(
        `/v1/pets?__scenario=slow-body&__bandwidth=${encodeURIComponent(value)}`,
      )
      expect(seen.status).toBe(400)
      expect(JSON.parse(seen.body.toString())).toMatchObject({
        code: 'invalid_parameter',
        details: [{ field: '__bandwidth' }],
      })
    },
  )

  it('slow-body answers 400 invalid_parameter for a repeated __bandwidth', async () => {
    const seen = await whole('/v1/pets?__scenario=slow-body&__bandwidth=5&__bandwidth=6')
    expect(seen.status).toBe(400)
    expect(JSON.parse(seen.body.toString())).toMatchObject({ details: [{ field: '__bandwidth' }] })
  })

  it('malformed-json sends the status and headers with the JSON body cut at its middle', async () => {
    const normal = await whole('/v1/pets')
    const seen = await whole('/v1/pets?__scenario=malformed-json')
    expect(seen.status).toBe(200)
    expect(seen.headers['content-type']).toBe('application/json')
    expect(seen.headers['content-length']).toBe(String(seen.body.byteLength))
    expect(seen.body.equals(normal.body.subarray(0, Math.floor(normal.body.byteLength / 2)))).toBe(
      true,
    )
    expect(() => JSON.parse(seen.body.toString())).toThrow(SyntaxError)
    expect(seen.end).toBe('fin')
    expect(lastEntry()).toMatchObject({ fault: 'malformed-json', delivered: true })
  })

  it('malformed-json cuts an Error body too (the answer the request would otherwise get)', async () => {
    const seen = await whole('/v1/pets/999999?__scenario=malformed-json')
    expect(seen.status).toBe(404)
    expect(() => JSON.parse(seen.body.toString())).toThrow(SyntaxError)
  })

  it('proxy-error answers 502 text/html with a gateway page, no Error body and no rate-limit headers', async () => {
    const seen = await whole('/v1/pets?__scenario=proxy-error')
    expect(seen.status).toBe(502)
    expect(seen.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(seen.body.toString()).toBe(PROXY_ERROR_PAGE)
    expect(Object.keys(seen.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([])
    expect(lastEntry()).toMatchObject({ status: 502, fault: 'proxy-error', delivered: true })
  })

  it('proxy-error does not run the operation: no pet is created', async () => {
    const before = (await whole('/v1/pets')).headers['x-total-count']
    const seen = await rawExchange(
      origin,
      requestText('POST', '/v1/pets?__scenario=proxy-error', {
        body: '{"name":"Gatewayed","categoryId":1}',
      }),
    )
    expect(seen.status).toBe(502)
    expect(before).toBeDefined()
    expect((await whole('/v1/pets')).headers['x-total-count']).toBe(before)
  })

  it('empty-response closes the connection (FIN) with no byte of answer', async () => {
    const seen = await whole('/v1/pets?__scenario=empty-response')
    expect(seen.bytes.byteLength).toBe(0)
    expect(seen.end).toBe('fin')
    expect(lastEntry()).toMatchObject({ status: null, fault: 'empty-response', delivered: false })
  })

  it('commit-then-drop stores the pet, sends no byte, and journals the 201 as not delivered', async () => {
    const name = `Committed ${Date.now()}`
    const seen = await rawExchange(
      origin,
      requestText('POST', '/v1/pets?__scenario=commit-then-drop', {
        body: JSON.stringify({ name, categoryId: 1 }),
      }),
    )
    expect(seen.bytes.byteLength).toBe(0)
    const entry = lastEntry()
    expect(entry).toMatchObject({ status: 201, fault: 'commit-then-drop', delivered: false })
    const created = JSON.parse(entry?.response?.body ?? '{}') as { id: number }
    const read = await whole(`/v1/pets/${created.id}`)
    expect(JSON.parse(read.body.toString())).toMatchObject({ id: created.id, name })
  })

  it.each([
    'reset-mid-body',
    'truncated-body',
    'stall-after-headers',
    'slow-body',
    'malformed-json',
  ])('%s on a HEAD (no body) behaves as empty-response', async (scenario) => {
    const seen = await rawExchange(origin, requestText('HEAD', `/v1/pets?__scenario=${scenario}`))
    expect(seen.bytes.byteLength).toBe(0)
    expect(seen.end).toBe('fin')
    expect(lastEntry()).toMatchObject({ status: null, fault: scenario, delivered: false })
  })

  it.each([
    'reset-mid-body',
    'truncated-body',
    'stall-after-headers',
    'slow-body',
    'malformed-json',
    'proxy-error',
    'empty-response',
    'commit-then-drop',
  ])('%s comes after authentication: no key is a whole 401', async (scenario) => {
    const seen = await rawExchange(
      origin,
      requestText('GET', `/v1/pets?__scenario=${scenario}`, { key: null }),
    )
    expect(seen.status).toBe(401)
    expect(JSON.parse(seen.body.toString())).toMatchObject({ code: 'missing_api_key' })
  })
})
