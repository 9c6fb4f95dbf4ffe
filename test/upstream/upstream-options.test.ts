import { describe, expect, it } from 'vitest'
import { createSandboxCore } from '../../src/sandbox/create-sandbox-core.js'

const create = (upstream: unknown) => () => createSandboxCore({ upstream: upstream as never })

describe('the upstream option', () => {
  it.each([
    ['ftp://staging.test/v1', /not an http\(s\) URL/],
    ['staging.test/v1', /not an http\(s\) URL/],
    ['https://staging.test/v1?x=1', /query or fragment/],
    [{ url: 'https://s.test/v1', key: 'two words' }, /key must be a bearer token/],
    [{ url: 'https://s.test/v1', timeoutMs: 0 }, /timeoutMs must be a whole number from 1/],
    [{ url: 'https://s.test/v1', timeoutMs: 1.5 }, /timeoutMs/],
    [{ url: 'https://s.test/v1', record: './x.har' }, /file path only in Node/],
    [{ replay: { log: {} } }, /replay is not a HAR archive/],
    [{ url: 'https://s.test/v1', replayFallback: 'upstream' }, /replayFallback must be/],
    [{}, /needs a url to forward to, or a recording to replay/],
    [{ url: 'https://s.test/v1', mode: 'replay' }, /mode "replay" needs replay/],
    [null, /must be a URL or an object/],
  ])('fails fast for %j', (option, message) => {
    expect(create(option)).toThrow(message)
    expect(create(option)).toThrow(/^Failed to create the sandbox: upstream /)
  })

  it('starts in upstream mode with a URL, in replay mode with a recording; sandbox without either', async () => {
    const plain = createSandboxCore()
    expect([plain.mode.get(), plain.mode.list(), plain.upstream.url]).toEqual([
      'sandbox',
      ['sandbox'],
      undefined,
    ])
    expect(() => plain.mode.set('upstream')).toThrow(/needs an upstream URL/)
    expect((await plain.upstream.recording()).log.entries).toEqual([])

    const both = createSandboxCore({
      upstream: { url: 'https://user:secret@s.test/v1/', replay: { log: { entries: [] } } },
    })
    expect([both.mode.get(), both.mode.list()]).toEqual([
      'replay',
      ['sandbox', 'upstream', 'replay'],
    ])
    expect(both.upstream.url).toBe('https://***@s.test/v1')
    expect(await both.upstream.replay()).toEqual({ answers: 0, skipped: 0 })
    expect(() => both.mode.set('staging' as never)).toThrow(/"staging" is not a mode/)
  })
})
