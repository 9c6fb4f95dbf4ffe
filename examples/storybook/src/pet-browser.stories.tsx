import type { Meta, StoryObj } from '@storybook/preact-vite'
import { PetBrowser } from './pet-browser.js'
import { sandboxParameters } from './sandbox-parameters.js'

// One story per state, each on a sandbox of its own with the scenario that makes it.
const meta = {
  title: 'PetBrowser',
  component: PetBrowser,
  args: { apiKey: 'sandbox-free', limit: 5 },
} satisfies Meta<typeof PetBrowser>
export default meta
type Story = StoryObj<typeof meta>

export const List: Story = { parameters: sandboxParameters() }
export const Empty: Story = { parameters: sandboxParameters('empty') }
export const RateLimited: Story = { parameters: sandboxParameters('rate-limited') }
export const Banned: Story = { parameters: sandboxParameters('banned') }
export const Unavailable: Story = { parameters: sandboxParameters('unavailable') }
export const Sunset: Story = { parameters: sandboxParameters('sunset') }
