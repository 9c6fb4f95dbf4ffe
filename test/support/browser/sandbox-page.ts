import { HttpResponse, http } from 'msw'
import { startSandbox } from '../../../src/runtimes/browser.js'

// The page the conformance suite runs in: the browser sandbox, its controls on
// `window.petstoreSandbox`, and one handler of the app's own under /v1 (issue
// 15), so the suite also proves that such a handler changes nothing else; one
// outside the base path and a plain function (issue 21: the order rule everywhere).
// `?upstream=URL` puts it in front of an upstream (issue 19).
const upstream = new URL(location.href).searchParams.get('upstream') ?? undefined
await startSandbox({
  quiet: true,
  ...(upstream === undefined ? {} : { upstream }),
  handlers: [
    http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }])),
    (request) =>
      new URL(request.url).pathname === '/version'
        ? Response.json({ version: '1.2.3' })
        : undefined,
    http.get('*/health', () => HttpResponse.json({ ok: true })),
  ],
})
document.body.dataset.ready = 'true'
