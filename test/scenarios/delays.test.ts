import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { ORIGIN } from './call-sandbox.js'

// Delays are real msw `delay()` timers here, driven by vitest's fake timers:
// no test waits on the wall clock.
const sandbox = createSandbox()
const server = setupServer(...sandbox.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(async () => {
  vi.useRealTimers()
  await sandbox.reset()
})
afterAll(() => server.close())

const get = (path: string) =>
  fetch(`${ORIGIN}/v1${path}`, { headers: { authorization: 'Bearer sandbox-enterprise' } })

/** Settles `promise` into a record we can inspect while timers are still fake. */
const track = <T>(promise: Promise<T>) => {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false }
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  )
  return state
}

describe('delays through the MSW adapter', () => {
  it('holds a slow answer 2000 ms by default, then answers 200', async () => {
    await sandbox.ready
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const result = track(get('/pets?__scenario=slow'))
    await vi.advanceTimersByTimeAsync(1_999)
    expect(result.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(result.settled).toBe(true))
    expect((result.value as Response).status).toBe(200)
  })

  it('holds a slow answer for the __delay given', async () => {
    await sandbox.ready
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const result = track(get('/pets?__scenario=slow&__delay=50'))
    await vi.advanceTimersByTimeAsync(49)
    expect(result.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(result.settled).toBe(true))
    expect((result.value as Response).status).toBe(200)
  })

  it('holds a timeout request 30000 ms, then fails the connection', async () => {
    await sandbox.ready
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const result = track(get('/pets?__scenario=timeout'))
    await vi.advanceTimersByTimeAsync(29_999)
    expect(result.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(result.settled).toBe(true))
    expect(result.error).toBeInstanceOf(TypeError)
  })

  it('lets a client that gives up first abort a timeout request', async () => {
    await sandbox.ready
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const controller = new AbortController()
    const result = track(
      fetch(`${ORIGIN}/v1/pets?__scenario=timeout`, {
        headers: { authorization: 'Bearer sandbox-enterprise' },
        signal: controller.signal,
      }),
    )
    await vi.advanceTimersByTimeAsync(5_000)
    controller.abort()
    await vi.waitFor(() => expect(result.settled).toBe(true))
    expect((result.error as Error).name).toBe('AbortError')
  })

  it('fails a network-error request at once', async () => {
    await expect(get('/pets?__scenario=network-error')).rejects.toThrow(TypeError)
  })
})
