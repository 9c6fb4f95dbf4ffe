import { describe, expect, it } from 'vitest'
import { FIDELITY_DEFAULTS } from '../../../src/contract/fidelity.js'
import { runVerify } from '../../../src/verify/run-verify.js'
import type { SuiteContext } from './define-conformance-suite.js'

/**
 * The checks of `petstore-sandbox verify` (src/verify, written once), run
 * through this runtime: every spec check passes, and every gap shows the
 * sandbox's default setting. Where the suite and verify overlap, they share
 * the checks rather than repeat them.
 */
export const verifySuite = (ctx: SuiteContext): void => {
  describe('verify', () => {
    it('passes every spec check of verify and shows the default setting on every gap', async () => {
      const target = ctx.target()
      const report = await runVerify({
        baseUrl: target.baseUrl,
        key: 'sandbox-enterprise',
        allowWrites: true,
        transport: async ({ method, path, headers, body }) => {
          const response = await ctx.send({
            method,
            path,
            headers,
            ...(body === undefined ? {} : { body }),
          })
          return { status: response.status, headers: response.headers, body: response.body }
        },
      })
      const failed = report.checks.filter((check) => !check.pass)
      expect(failed, JSON.stringify(failed, null, 1)).toEqual([])
      expect(report.passed).toBe(true)
      expect(report.skipped.map((s) => s.id).sort()).toEqual([
        'spec.errors.allow',
        'spec.rate-limit.retry-after',
      ])
      expect(report.config).toEqual(FIDELITY_DEFAULTS)
    })
  })
}
