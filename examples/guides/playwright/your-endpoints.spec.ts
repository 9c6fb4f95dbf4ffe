import { expect, test } from '@playwright/test'
import { HttpResponse, http } from 'msw'
import { publicHandler } from 'petstore-sandbox'
import { installSandbox } from 'petstore-sandbox/playwright'

// Your app comes from your dev server; here a handler serves a tiny one that lists categories.
const app = http.get('https://app.example.test/', () =>
  HttpResponse.html(`<output></output><script type="module">
    const r = await fetch('https://api.example.test/v1/categories?limit=2', { headers: { authorization: 'Bearer sandbox-free' } })
    document.querySelector('output').textContent = r.ok ? (await r.json()).length + ' categories' : (await r.json()).code
  </script>`),
)

test('the app lists the document’s categories, and shows the outage on them too', async ({
  page,
}) => {
  const sandbox = await installSandbox(page, {
    baseUrl: 'https://api.example.test/v1',
    openapi: 'examples/openapi/petstore-extras.yaml', // a path (relative to the working directory) or the object
    handlers: [app, publicHandler(http.get('*/v1/status', () => HttpResponse.json({ ok: true })))],
  })
  await page.goto('https://app.example.test/')
  await expect(page.locator('output')).toHaveText('2 categories')
  sandbox.scenario.set('unavailable')
  await page.reload()
  await expect(page.locator('output')).toHaveText('service_unavailable')
  expect(sandbox.journal.list().map((entry) => [entry.operation, entry.status])).toEqual([
    ['listCategories', 200],
    ['listCategories', 503],
  ])
})
