import type { StoryContext } from '@storybook/preact-vite'
import type { SetupWorker } from 'msw/browser'
import { createSandbox, type ScenarioName } from 'petstore-sandbox/browser'

/**
 * A story's `beforeEach`: a fresh sandbox (seeded pets, fresh quotas) whose sticky scenario is
 * `scenario`, its handlers handed to the worker msw-storybook-addon started (`context.msw`).
 * The scenario name is typed: a misspelt one fails the type check, and an unknown one throws
 * with the list of valid names. The addon resets the handlers between stories.
 *
 * @example
 * export const RateLimited: Story = { beforeEach: withSandbox('rate-limited') }
 */
export const withSandbox =
  (scenario: ScenarioName = 'default') =>
  (context: StoryContext): void => {
    // The addon adds `msw` to the context type of 'storybook/internal/csf', which the
    // framework's own StoryContext type does not show.
    const { msw } = context as StoryContext & { msw?: SetupWorker }
    if (msw === undefined)
      throw new Error(
        'Failed to start the sandbox for this story: no MSW worker in the story context. Add `loaders: [mswLoader()]` (msw-storybook-addon/csf3) to .storybook/preview.ts.',
      )
    const sandbox = createSandbox({ seed: 1 })
    sandbox.scenario.set(scenario)
    msw.use(...sandbox.handlers)
  }
