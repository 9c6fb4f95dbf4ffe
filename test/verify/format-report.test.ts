import { describe, expect, it } from 'vitest'
import { formatReport } from '../../src/verify/format-report.js'
import type { VerifyReport } from '../../src/verify/verify-types.js'

const reportOf = (overrides: Partial<VerifyReport>): VerifyReport => ({
  target: 'https://staging.example/v1',
  startedAt: '2030-01-01T00:00:00.000Z',
  finishedAt: '2030-01-01T00:00:01.000Z',
  requests: 1,
  maxRequests: 1,
  allowWrites: true,
  createdPets: [{ id: 7, name: 'petstore-sandbox verify 20300101T000000Z #1' }],
  rateLimit: null,
  stopped: null,
  passed: true,
  summary: {
    spec: { passed: 1, failed: 0, skipped: 0 },
    gap: { same: 1, different: 1, skipped: 0 },
  },
  checks: [
    {
      id: 'spec.auth.valid-key',
      kind: 'spec',
      pass: true,
      observed: '200',
      expected: '200',
      message: 'The key is accepted.',
    },
    {
      id: 'gap.pagination',
      kind: 'gap',
      pass: true,
      observed: 'cursor',
      expected: 'cursor',
      message: 'Same.',
    },
    {
      id: 'gap.defaultStatus',
      kind: 'gap',
      pass: false,
      observed: 'pending',
      expected: 'available',
      message: 'Other.',
    },
  ],
  skipped: [],
  config: {},
  ...overrides,
})

describe('formatReport', () => {
  it('says "1 gap the same", "1 spec check", "1 pet" and "1 request" in the singular (regression: "1 gaps the same")', () => {
    const text = formatReport(reportOf({}))
    expect(text).toContain('1 of at most 1 request, with writes')
    expect(text).toContain('created 1 pet: 7')
    expect(text).toContain('PASSED: 1 spec check passed, 0 failed, 0 skipped; 1 gap the same,')
  })

  it('says "2 gaps the same" and "2 spec checks" in the plural', () => {
    const summary = {
      spec: { passed: 2, failed: 0, skipped: 0 },
      gap: { same: 2, different: 0, skipped: 0 },
    }
    const text = formatReport(reportOf({ summary, maxRequests: 150 }))
    expect(text).toContain('1 of at most 150 requests')
    expect(text).toContain('2 spec checks passed, 0 failed, 0 skipped; 2 gaps the same,')
  })

  it('suggests --emit-config for a gap that differs, unless the run writes the config itself (regression)', () => {
    const hint = 'Run again with --emit-config FILE'
    expect(formatReport(reportOf({}))).toContain(hint)
    expect(formatReport(reportOf({}), { emitsConfig: true })).not.toContain(hint)
  })
})
