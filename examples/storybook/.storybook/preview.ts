import type { Preview } from '@storybook/preact-vite'
import { initialize, mswLoader } from 'msw-storybook-addon'

// Starts MSW's worker once for the whole Storybook; each story's `parameters.msw.handlers`
// (a sandbox of its own, src/sandbox-parameters.ts) answer its requests.
initialize({ onUnhandledRequest: 'bypass', quiet: true })

const preview: Preview = {
  loaders: [mswLoader],
}
export default preview
