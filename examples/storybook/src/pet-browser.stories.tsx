import type { Meta, StoryObj } from '@storybook/preact-vite'
import { PetBrowser } from './pet-browser.js'
import { withSandbox } from './with-sandbox.js'

// One story per state, each on a fresh sandbox with the scenario that makes it.
const meta = {
  title: 'PetBrowser',
  component: PetBrowser,
  args: { apiKey: 'sandbox-free', limit: 5 },
} satisfies Meta<typeof PetBrowser>
export default meta
type Story = StoryObj<typeof meta>

export const List: Story = { beforeEach: withSandbox() }
export const Empty: Story = { beforeEach: withSandbox('empty') }
export const RateLimited: Story = { beforeEach: withSandbox('rate-limited') }
export const Banned: Story = { beforeEach: withSandbox('banned') }
export const Unavailable: Story = { beforeEach: withSandbox('unavailable') }
export const Sunset: Story = { beforeEach: withSandbox('sunset') }
