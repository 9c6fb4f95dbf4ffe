import { expect, test } from '@playwright/test'
import { HttpResponse, http } from 'msw'
import { installSandbox } from 'petstore-sandbox/playwright'

// Your app comes from your dev server; here a handler serves a tiny one.
const app = http.get('https://app.example.test/', () =>
  HttpResponse.html(`<output></output><script type="module">
    const r = await fetch('https://api.example.test/v1/pets', { headers: { authorization: 'Bearer sandbox-free' } })
    document.querySelector('output').textContent = r.ok ? 'pets' : (await r.json()).code
  </script>`),
)

test('the app shows the 503 the sandbox forces', async ({ page }) => {
  const sandbox = await installSandbox(page, {
    baseUrl: 'https://api.example.test/v1',
    handlers: [app],
  })
  sandbox.scenario.set('unavailable')
  await page.goto('https://app.example.test/')
  await expect(page.locator('output')).toHaveText('service_unavailable')
})
