import { HttpResponse, http } from 'msw'
import { startSandbox } from '../../../src/runtimes/browser.js'
import { OWN_HANDLERS } from '../../conformance/parts/own-handlers.js'

// The page the conformance suite runs in: the browser sandbox, its controls on
// `window.petstoreSandbox`, and one handler of the app's own under /v1 (issue
// 15), so the suite also proves that such a handler changes nothing else; one
// outside the base path and a plain function (issue 21: the order rule everywhere).
// `?upstream=URL` puts it in front of an upstream (issue 19).
// `?own` starts it with the conformance suite's own handlers instead (OWN_HANDLERS: a named,
// a public and a passthrough one), `?openapi` with the document extras.json (issue 29):
// fetched and parsed by the page, as an app passes a document in a browser.
const params = new URL(location.href).searchParams
const upstream = params.get('upstream') ?? undefined
const openapi = params.has('openapi')
  ? ((await (await fetch('/extras.json')).json()) as Record<string, unknown>)
  : undefined
const ownHandlers = params.has('own') ? OWN_HANDLERS : undefined
await startSandbox({
  quiet: true,
  ...(upstream === undefined ? {} : { upstream }),
  ...(openapi === undefined ? {} : { openapi }),
  handlers:
    ownHandlers ??
    (openapi !== undefined
      ? []
      : [
          http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }])),
          (request) =>
            new URL(request.url).pathname === '/version'
              ? Response.json({ version: '1.2.3' })
              : undefined,
          http.get('*/health', () => HttpResponse.json({ ok: true })),
        ]),
})
document.body.dataset.ready = 'true'
