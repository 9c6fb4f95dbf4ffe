import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDocsPage, handleDocsRequest } from '../../src/server/docs/handle-docs-request.js'
import { createHttpTarget } from '../conformance/targets/http-target.js'
import { sendHttp } from './support/send-raw.js'

// GET /__sandbox/docs follows the dashboard's access rules (contract §14, §21): Host and
// Origin checked first, the page and its files without the admin token, the strict CSP.
// The page's files come from a folder of our own here (the browser test builds the real one).
const target = createHttpTarget({ adminToken: 'docs-routes-token-1234' })
let dir: string
let files: Server
let filesOrigin: string

beforeAll(async () => {
  await target.start()
  dir = await mkdtemp(join(tmpdir(), 'docs-routes-'))
  await writeFile(
    join(dir, 'index.html'),
    '<meta name="petstore-sandbox-base-path" content="%BASE_PATH%"><script type="module" src="/__sandbox/docs/assets/docs-AB12.js"></script>',
  )
  await writeFile(join(dir, 'docs-AB12.js'), 'console.log("reference")')
  await writeFile(join(dir, 'docs-AB12.css'), 'body{}')
  await writeFile(join(dir, 'swagger-ui.LICENSE.txt'), 'Apache')
  const docs = createDocsPage({ basePath: '/api/"v1"<x>', dir })
  const empty = createDocsPage({ basePath: '/v1', dir: join(dir, 'missing') })
  files = createServer((req, res) => {
    const page = req.headers['x-empty'] === '1' ? empty : docs
    void handleDocsRequest(page, req, res).then((done) => {
      if (!done) res.writeHead(418).end()
    })
  })
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve))
  filesOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`
})

afterAll(async () => {
  await target.stop()
  await new Promise((resolve) => files.close(resolve))
  await rm(dir, { recursive: true, force: true })
})

const port = () => new URL(target.origin).port
const docs = (headers: Record<string, string> = {}, method = 'GET', path = '/__sandbox/docs') =>
  sendHttp(target.origin, { method, path, headers })

describe('who reaches /__sandbox/docs on the server', () => {
  it.each([
    ['a rebinding host name', 'attacker.example'],
    ['a public address', '203.0.113.9'],
    ['a name ending like localhost', 'evil-localhost'],
  ])('answers 403 forbidden to %s in Host, page and files alike', async (_name, host) => {
    for (const path of ['/__sandbox/docs', '/__sandbox/docs/assets/docs-AB12.js']) {
      const answer = await docs({ host: `${host}:${port()}` }, 'GET', path)
      expect(answer.status, path).toBe(403)
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'forbidden', status: 403 })
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it.each([
    ['another origin', 'https://attacker.example'],
    ['the same host on another port', 'http://127.0.0.1:1'],
    ['an opaque origin', 'null'],
  ])('answers 403 forbidden to a request from %s', async (_name, origin) => {
    const answer = await docs({ origin })
    expect(answer.status).toBe(403)
    expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([])
  })

  it('answers a loopback Host without the admin token (the page carries no data), with the strict CSP', async () => {
    const answer = await docs({ host: `localhost:${port()}` })
    // 200 once built (npm run build), 404 saying so before: never 403, never a token asked.
    expect([200, 404]).toContain(answer.status)
    const csp = String(answer.headers['content-security-policy'])
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(answer.headers['x-frame-options']).toBe('DENY')
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
  })

  it('keeps the data behind the admin token: the document the page reads needs it', async () => {
    const document = await docs({}, 'GET', '/__sandbox/openapi.json')
    expect(document.status).toBe(403)
    const withToken = await docs(
      { authorization: 'Bearer docs-routes-token-1234' },
      'GET',
      '/__sandbox/openapi.json',
    )
    expect(withToken.status).toBe(200)
  })

  it.each(['POST', 'PUT', 'DELETE'])('answers %s with 405 and Allow: GET', async (method) => {
    const answer = await docs({}, method)
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('GET')
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'method_not_allowed' })
  })
})

describe('the page and its files', () => {
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    sendHttp(filesOrigin, { method, path, headers })

  it('serves the page with the base path escaped into it, no-store', async () => {
    for (const path of ['/__sandbox/docs', '/__sandbox/docs/', '/__sandbox/docs?x=1']) {
      const answer = await get(path)
      expect(answer.status, path).toBe(200)
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(answer.headers['cache-control']).toBe('no-store')
      expect(answer.body).toContain('content="/api/&quot;v1&quot;&lt;x&gt;"')
    }
  })

  it('serves a hashed file for a year, HEAD without a body', async () => {
    const answer = await get('/__sandbox/docs/assets/docs-AB12.js')
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(answer.headers['cache-control']).toContain('immutable')
    const head = await get('/__sandbox/docs/assets/docs-AB12.css', {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
  })

  it.each([
    ['an unknown file', '/__sandbox/docs/assets/nope.js'],
    ['the page by its file name', '/__sandbox/docs/assets/index.html'],
    ['a file that is not a page asset', '/__sandbox/docs/assets/swagger-ui.LICENSE.txt'],
    ['a path out of the folder', '/__sandbox/docs/assets/../../package.json'],
    ['an encoded path out of the folder', '/__sandbox/docs/assets/..%2F..%2Fpackage.json'],
    ['another path below the page', '/__sandbox/docs/other'],
  ])('answers 404 route_not_found to %s', async (_name, path) => {
    const answer = await get(path)
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'route_not_found', status: 404 })
  })

  it('says to build when the page was not built', async () => {
    const answer = await get('/__sandbox/docs', { 'x-empty': '1' })
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.body).message).toContain('npm run build')
  })

  it('leaves other paths to the next handler', async () => {
    for (const path of ['/__sandbox/', '/__sandbox/docsx', '/v1/pets'])
      expect((await get(path)).status, path).toBe(418)
  })

  it('reads the folder once, on the first request, not when created', async () => {
    const later = await mkdtemp(join(tmpdir(), 'docs-lazy-'))
    const page = createDocsPage({ basePath: '/v1', dir: later })
    await writeFile(join(later, 'index.html'), 'made after createDocsPage')
    expect((await page.assets()).get('index.html')?.body.toString()).toBe(
      'made after createDocsPage',
    )
    await writeFile(join(later, 'index.html'), 'changed')
    expect((await page.assets()).get('index.html')?.body.toString()).toBe(
      'made after createDocsPage',
    )
    await rm(later, { recursive: true, force: true })
  })
})
