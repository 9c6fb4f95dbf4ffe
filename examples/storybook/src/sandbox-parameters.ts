import { createSandbox, type ScenarioName } from 'petstore-sandbox/browser'

/**
 * A story's `parameters`: a sandbox of its own (seeded pets, fresh quotas) whose sticky
 * scenario is `scenario`, handed to msw-storybook-addon as `parameters.msw.handlers`.
 * The scenario name is typed: a misspelt one fails the type check, and an unknown one
 * throws with the list of valid names.
 *
 * @example
 * export const RateLimited: Story = { parameters: sandboxParameters('rate-limited') }
 */
export const sandboxParameters = (scenario: ScenarioName = 'default') => {
  const sandbox = createSandbox({ seed: 1 })
  sandbox.scenario.set(scenario)
  return { msw: { handlers: sandbox.handlers } }
}
