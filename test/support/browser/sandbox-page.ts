import { startSandbox } from '../../../src/runtimes/browser.js'

// The page the conformance suite runs in: the browser sandbox, its controls on
// `window.petstoreSandbox`, and nothing else.
await startSandbox({ quiet: true })
document.body.dataset.ready = 'true'
