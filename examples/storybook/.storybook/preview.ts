import type { Preview } from '@storybook/preact-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'

// Starts MSW's worker once for the whole Storybook (the addon's CSF 3 loader); each story's
// `beforeEach` hands it the handlers of a sandbox of its own (src/with-sandbox.ts).
const preview: Preview = {
  loaders: [mswLoader()],
}
export default preview
