import type { FidelitySettings } from '../contract/fidelity.js'
import type { VerifyContext } from './verify-context.js'

/**
 * Notes what the target does on one gap: `observed` is the setting's value
 * when it is one (`emit`: `--emit-config` writes it), a description when it
 * is none of the values, undefined when the run could not tell.
 */
export const recordGap = (
  ctx: VerifyContext,
  name: keyof FidelitySettings,
  observed: unknown,
  emit: boolean,
  message: string,
): void => {
  ctx.gaps.set(name, { observed, emit, message })
}
