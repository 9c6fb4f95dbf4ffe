import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type VerifyReport, verify } from '../../src/server/index.js'
import { STAND_IN_KEY, startStandIn } from './support/start-stand-in.js'

/** Each way the stand-in is broken, and the check(s) verify must fail for it. */
const BREAKS: Record<string, string[]> = {
  'no-remaining': ['spec.rate-limit.headers'],
  'reset-delta': ['spec.rate-limit.reset'],
  'no-challenge': ['spec.auth.challenge'],
  'error-status': ['spec.errors.status'],
  'text-errors': ['spec.responses.content-type'],
  'default-limit-25': ['spec.list.default-limit', 'spec.list.limit'],
  'status-filter': ['spec.list.status-filter'],
  'list-body': ['spec.list.body'],
  deprecation: ['spec.get.deprecation'],
  sunset: ['spec.get.sunset'],
  'not-found-400': ['spec.get.not-found'],
  'wrong-pet': ['spec.get.found', 'spec.get.id'],
  'malformed-400': ['spec.auth.malformed'],
  'ignore-status-sent': ['spec.create.echo'],
  'any-content-type': ['spec.create.content-type'],
  'accept-invalid': ['spec.create.invalid-values'],
  'name-optional': ['spec.create.missing-fields'],
  'html-404': ['spec.responses.json'],
  'error-body': ['spec.errors.body'],
}

let standIn: Awaited<ReturnType<typeof startStandIn>>
let report: VerifyReport
beforeAll(async () => {
  standIn = await startStandIn({ broken: Object.keys(BREAKS) })
  report = await verify({ target: standIn.url, key: STAND_IN_KEY, allowWrites: true })
})
afterAll(() => standIn.stop())

describe('verify against a deliberately broken server', () => {
  it.each(Object.entries(BREAKS))('names the rule broken by "%s"', (_break, ids) => {
    for (const id of ids) {
      const check = report.checks.find((c) => c.id === id)
      expect(check, id).toBeDefined()
      expect(check?.kind).toBe('spec')
      expect(check?.pass, `${id}: ${check?.message}`).toBe(false)
      expect(check?.message.length).toBeGreaterThan(10)
    }
  })

  it('fails no spec check that was not broken, and fails the run', () => {
    const broken = new Set(Object.values(BREAKS).flat())
    const failed = report.checks.filter((c) => c.kind === 'spec' && !c.pass).map((c) => c.id)
    expect(failed.filter((id) => !broken.has(id))).toEqual([])
    expect(report.passed).toBe(false)
    expect(report.summary.spec.failed).toBe(failed.length)
  })

  it('says what was wrong in words, with the request that showed it', () => {
    const message = (id: string) => report.checks.find((c) => c.id === id)?.message
    expect(message('spec.get.sunset')).toMatch(
      /Sunset is "Sat, 01 Jan 2028 00:00:00 GMT", not the removal date/,
    )
    expect(message('spec.rate-limit.reset')).toMatch(
      /X-RateLimit-Reset is 60: not a Unix timestamp/,
    )
    expect(message('spec.responses.json')).toMatch(
      /not JSON: "<html>.*\(GET \/petstore-sandbox-verify-no-such-route → 404\)/,
    )
    expect(message('spec.create.content-type')).toMatch(/answered 201, not 400.*A pet was created/)
  })

  it('still creates at most 5 pets', () => {
    expect(report.createdPets.length).toBeLessThanOrEqual(5)
    expect(report.createdPets.length).toBeGreaterThan(2)
  })
})
