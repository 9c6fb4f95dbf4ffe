import { describe, expect, it } from 'vitest'
import { createRouter, templateProblem } from '../../src/http/router.js'
import { CONTRACT_ROUTES } from '../../src/operations/route-table.js'

// Issue 35 item 2: every path template OpenAPI allows, as real documents write them.
describe('router templates beyond whole {param} segments', () => {
  const router = createRouter<string>()
    .add('GET', '/Accounts/{AccountSid}/Calls/{Sid}.json', 'twilio')
    .add('GET', '/svc/{section}/{period}.{format}', 'nytimes')
    .add('GET', '/posts.json', 'discourse')
    .add('GET', '/services/', 'netlify')
    .add('GET', '/enterprises/{enterprise}/teams/{enterprise-team}', 'github')
    .add('GET', '/v1/{name}:cancel', 'google')
    .add('GET', '/odd/{__proto__}.x', 'proto')
    .add('GET', '/whole/{__proto__}/{id}', 'whole-proto')

  it('splits a segment with literal text around its parameters', () => {
    expect(router.match('GET', '/Accounts/AC1/Calls/CA9.json')).toMatchObject({
      kind: 'found',
      value: 'twilio',
      params: { AccountSid: 'AC1', Sid: 'CA9' },
    })
    expect(router.match('GET', '/svc/home/7.json')).toMatchObject({
      value: 'nytimes',
      params: { section: 'home', period: '7', format: 'json' },
    })
    // The first parameter ends at the first "." after it; the last takes the rest.
    expect(router.match('GET', '/svc/home/7.1.json')).toMatchObject({
      params: { period: '7', format: '1.json' },
    })
    expect(router.match('GET', '/v1/jobs%2F1:cancel')).toMatchObject({
      value: 'google',
      params: { name: 'jobs%2F1' },
    })
  })

  it('refuses a segment that does not fit: no empty parameter, the literal text where it belongs', () => {
    expect(router.match('GET', '/Accounts/AC1/Calls/.json').kind).toBe('not-found')
    expect(router.match('GET', '/Accounts/AC1/Calls/CA9.xml').kind).toBe('not-found')
    expect(router.match('GET', '/svc/home/7.').kind).toBe('not-found')
    expect(router.match('GET', '/svc/home/json').kind).toBe('not-found')
  })

  it('routes literal suffixes, trailing slashes and parameter names with "-"', () => {
    expect(router.match('GET', '/posts.json')).toMatchObject({ value: 'discourse' })
    expect(router.match('GET', '/posts').kind).toBe('not-found')
    expect(router.match('GET', '/services/')).toMatchObject({ value: 'netlify' })
    expect(router.match('GET', '/services').kind).toBe('not-found')
    expect(router.match('GET', '/enterprises/acme/teams/core')).toMatchObject({
      value: 'github',
      params: { enterprise: 'acme', 'enterprise-team': 'core' },
    })
  })

  it('keeps a parameter named __proto__ a plain key', () => {
    const found = router.match('GET', '/odd/abc.x')
    expect(found).toMatchObject({ value: 'proto' })
    if (found.kind !== 'found') return
    expect(Object.hasOwn(found.params, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(found.params)).toBe(Object.prototype)
    // A whole segment too, beside another parameter.
    const whole = router.match('GET', '/whole/abc/7')
    expect(whole).toMatchObject({ value: 'whole-proto', params: { id: '7' } })
    if (whole.kind !== 'found') return
    expect(Object.keys(whole.params)).toEqual(['__proto__', 'id'])
    expect(Object.getOwnPropertyDescriptor(whole.params, '__proto__')?.value).toBe('abc')
    expect(Object.getPrototypeOf(whole.params)).toBe(Object.prototype)
  })

  it('says why a template cannot be routed, in words', () => {
    expect(templateProblem('/a/{b}{c}')).toMatch(/two parameters with nothing between them/)
    expect(templateProblem('/a/{}')).toMatch(/a parameter without a name/)
    expect(templateProblem('/a/b c')).toMatch(/neither a literal segment nor \{param\}/)
    expect(templateProblem('/a/{b}.json')).toBeUndefined()
  })

  it("leaves the contract's routes as they were: whole segments, 405 with Allow", () => {
    expect(CONTRACT_ROUTES.router.match('GET', '/pets/7')).toMatchObject({
      kind: 'found',
      params: { petId: '7' },
    })
    expect(CONTRACT_ROUTES.router.match('GET', '/pets/7.json')).toMatchObject({
      params: { petId: '7.json' },
    })
    expect(CONTRACT_ROUTES.router.match('PUT', '/pets')).toMatchObject({
      kind: 'method-not-allowed',
    })
  })
})
