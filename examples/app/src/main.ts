import { createApiClient } from './create-api-client.js'
import { mountApp } from './mount-app.js'
import { readAppConfig } from './read-app-config.js'
import { BUILT_IN_SCENARIOS } from './scenario-names.js'

const config = readAppConfig(new URL(window.location.href))
let scenarioSelect: HTMLSelectElement | null = null
const api = createApiClient({
  apiBase: config.apiBase,
  apiKey: config.apiKey,
  scenario: () => scenarioSelect?.value ?? '',
})

if (config.mock === 'worker') {
  // Loaded only in worker mode: the sandbox stays out of the server build's first load.
  const { startSandbox } = await import('petstore-sandbox/browser')
  const sandbox = await startSandbox({
    persist: true,
    serviceWorker: { url: new URL('./mockServiceWorker.js', window.location.href).pathname },
  })
  scenarioSelect = document.querySelector<HTMLSelectElement>('#scenario')
  await mountApp({
    api,
    mode: `Mock Service Worker: ${config.apiBase}, key ${config.apiKey}, sticky scenario ${sandbox.scenario.get()}`,
    scenarios: sandbox.scenario.list().map((s) => s.name),
    resetSandbox: () => sandbox.reset(),
  })
} else {
  scenarioSelect = document.querySelector<HTMLSelectElement>('#scenario')
  await mountApp({
    api,
    mode: `Server: ${config.apiBase}, key ${config.apiKey}`,
    scenarios: BUILT_IN_SCENARIOS,
  })
}
document.body.dataset.ready = 'true'
