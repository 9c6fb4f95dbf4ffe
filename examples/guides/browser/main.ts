// src/main.ts, bundled with: npx esbuild src/main.ts --bundle --splitting --format=esm --outdir=public
import { HttpResponse, http } from 'msw'
import { publicHandler } from 'petstore-sandbox'
import { startSandbox } from 'petstore-sandbox/browser'

// A browser reads no files: fetch the document (JSON) or import it, and pass the object.
const extras = await (await fetch('/extras.json')).json()
await startSandbox({
  openapi: extras,
  seed: 7,
  handlers: [publicHandler(http.get('*/v1/status', () => HttpResponse.json({ ok: true })))],
})
const response = await fetch('/v1/categories?limit=3', {
  headers: { Authorization: 'Bearer sandbox-free' },
})
for (const category of await response.json()) {
  const item = document.createElement('li')
  item.textContent = category.name // never innerHTML with data
  document.querySelector('#categories')?.append(item)
}
