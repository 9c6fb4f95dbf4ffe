import { defineScenario, type Scenario } from '../scenarios/define-scenario.js'

const SHAPE = 'must be a scenario made with defineScenario({ name, description, … })'

/**
 * What is wrong with one entry of a config file's `scenarios`, in the words
 * of `defineScenario`, or undefined when it is a scenario. `taken` holds the
 * names in use (the built-in ones, then each checked entry's), so two
 * scenarios never share a name.
 *
 * @example
 * checkConfigScenario({ name: 'slow', description: '…' }, new Set(['slow'])) // 'is named "slow", …'
 */
export const checkConfigScenario = (value: unknown, taken: Set<string>): string | undefined => {
  if (typeof value !== 'object' || value === null) return SHAPE
  const { name, description } = value as { name?: unknown; description?: unknown }
  if (typeof name !== 'string' || typeof description !== 'string') return SHAPE
  try {
    defineScenario(value as Scenario)
  } catch (error) {
    // "Failed to define scenario "x": reason." reads as "("x"): reason." after the field.
    const reason = error instanceof Error ? error.message : String(error)
    return `("${name}") ${reason.replace(/^Failed to define scenario "[^"]*": /, '').replace(/\.$/, '')}`
  }
  for (const hook of ['store', 'respond', 'delayMs'] as const) {
    const given = (value as Record<string, unknown>)[hook]
    if (given !== undefined && typeof given !== 'function')
      return `("${name}") ${hook} must be a function`
  }
  if (taken.has(name))
    return `is named "${name}", which another scenario has (a built-in one or an earlier entry); choose another name`
  taken.add(name)
  return undefined
}
