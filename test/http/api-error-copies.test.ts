import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/http/api-error.js'
import { StaleStateError } from '../../src/state/stale-state.js'

// Issue 21: a config file's scenario returns an ApiError made by the built
// package (`petstore-sandbox/server`), while the bundled CLI has a copy of its
// own; `instanceof ApiError` must hold across copies, and only for ApiError.
describe('instanceof ApiError', () => {
  it('holds for an ApiError of another copy of the package (the built dist)', async () => {
    const built = (await import(new URL('../../dist/server/index.js', import.meta.url).href)) as {
      ApiError: typeof ApiError
    }
    expect(built.ApiError).not.toBe(ApiError)
    const foreign = new built.ApiError('service_unavailable', 'Read-only.')
    expect(foreign instanceof ApiError).toBe(true)
    expect(new ApiError('pet_not_found', 'No pet.') instanceof built.ApiError).toBe(true)
  })

  it('does not hold for look-alikes, and a subclass keeps its own check', () => {
    const lookAlike = Object.assign(new Error('x'), { code: 'pet_not_found', status: 404 })
    expect(lookAlike instanceof ApiError).toBe(false)
    expect((null as unknown as object) instanceof ApiError).toBe(false)
    // A plain ApiError is no StaleStateError (the pipeline retries only those).
    expect(new ApiError('unknown_scenario', 'x') instanceof StaleStateError).toBe(false)
    const stale = new StaleStateError()
    expect([stale instanceof StaleStateError, stale instanceof ApiError]).toEqual([true, true])
  })
})
