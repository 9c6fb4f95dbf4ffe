// Opens every story of the built Storybook (storybook-static/) in Debian's Chromium and checks
// what each state shows; screenshots go to screenshots/. No browser is downloaded:
// playwright-core drives /usr/bin/chromium (or PETSTORE_SANDBOX_CHROMIUM).
// Usage: npm run build && node check-stories.mjs
import { mkdir, readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const ROOT = join(HERE, 'storybook-static')
const SHOTS = join(HERE, 'screenshots')
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
}

/** Each story, and a text its state must show. */
const STORIES = [
  ['list', /Pets.* is (available|pending|sold)\./s],
  ['empty', /No pets yet\./],
  ['rate-limited', /Slow down.*Too many requests\. Try again in \d+ s\./s],
  ['banned', /Access suspended.*This API key is banned\./s],
  ['unavailable', /Pet store unavailable.*Try again in \d+ s\./s],
  ['sunset', /Details are retired \(410 Gone, sunset /],
]

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
  const file = join(ROOT, path.endsWith('/') ? `${path}index.html` : path)
  if (!file.startsWith(ROOT)) return res.writeHead(403).end()
  try {
    const body = await readFile(file)
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
    res.end(body)
  } catch {
    res.writeHead(404).end()
  }
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${server.address().port}`

const browser = await chromium.launch({
  executablePath: process.env.PETSTORE_SANDBOX_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
await mkdir(SHOTS, { recursive: true })
const failures = []
try {
  for (const [story, expected] of STORIES) {
    const page = await browser.newPage({ viewport: { width: 640, height: 360 } })
    const foreign = []
    page.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(origin) && !url.startsWith('data:')) foreign.push(url)
    })
    const started = performance.now()
    await page.goto(`${origin}/iframe.html?id=petbrowser--${story}&viewMode=story`)
    const root = page.locator('#storybook-root')
    try {
      await page.waitForFunction(
        ([source, flags]) =>
          new RegExp(source, flags).test(
            document.querySelector('#storybook-root')?.textContent ?? '',
          ),
        [expected.source, expected.flags],
        { timeout: 30_000 },
      )
      const text = (await root.textContent()) ?? ''
      if (foreign.length > 0)
        failures.push(`${story}: requests left the origin: ${foreign.join(', ')}`)
      console.log(
        `ok   ${story.padEnd(13)} ${Math.round(performance.now() - started)} ms  ${text.slice(0, 70)}`,
      )
    } catch {
      failures.push(`${story}: expected ${expected}, shown: ${(await root.textContent()) ?? ''}`)
    }
    await page.screenshot({ path: join(SHOTS, `${story}.png`) })
    await page.close()
  }
} finally {
  await browser.close()
  server.close()
}
if (failures.length > 0) {
  console.error(`Failed to check the stories:\n${failures.join('\n')}`)
  process.exit(1)
}
console.log(`All ${STORIES.length} stories show their state. Screenshots: ${SHOTS}`)
