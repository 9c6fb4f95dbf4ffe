import type { StorybookConfig } from '@storybook/preact-vite'

// Storybook 10 with Preact and Vite. The sandbox runs inside the preview through
// msw-storybook-addon (preview.ts): every story gets the sandbox's MSW handlers.
const config: StorybookConfig = {
  stories: ['../src/**/*.stories.@(ts|tsx)'],
  addons: ['msw-storybook-addon'],
  framework: { name: '@storybook/preact-vite', options: {} },
  // MSW's worker script (`msw init public`) is served from here.
  staticDirs: ['../public'],
  // Nothing leaves the machine: no telemetry, no update check.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  viteFinal: (vite) => ({
    ...vite,
    // One msw and one preact: petstore-sandbox's handlers must be built from the copy of msw
    // whose worker the addon starts (the package is linked from ../.. in this example).
    resolve: { ...vite.resolve, dedupe: ['msw', 'preact'] },
  }),
}
export default config
