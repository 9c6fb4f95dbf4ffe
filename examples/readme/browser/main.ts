// src/main.ts, bundled with: npx esbuild src/main.ts --bundle --format=esm --outfile=public/main.js
import { startSandbox } from 'petstore-sandbox/browser'

await startSandbox()
const response = await fetch('/v1/pets', { headers: { Authorization: 'Bearer sandbox-free' } })
for (const pet of await response.json()) {
  const item = document.createElement('li')
  item.textContent = pet.name // never innerHTML with data
  document.querySelector('#pets')?.append(item)
}
