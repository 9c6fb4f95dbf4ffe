import { HttpResponse, http } from 'msw'
import { ownHandler, passthroughHandler, publicHandler } from '../../../src/index.js'

/**
 * Your own handlers (contract §20, decision 0042), the same in every runtime:
 * a key-required one (id `GET /categories`), a named one, a public one and a
 * passthrough one. Targets that run the own-handler part create their sandbox
 * with them. A file of its own, without vitest: the service worker's page bundles it.
 */
export const OWN_HANDLERS = [
  http.get('*/v1/categories', () => HttpResponse.json([{ id: 1, name: 'Cats' }])),
  ownHandler(
    http.get('*/v1/orders/:orderId', ({ params }) => HttpResponse.json({ id: params.orderId })),
    { name: 'getOrder' },
  ),
  publicHandler(http.get('*/v1/status', () => HttpResponse.json({ ok: true }))),
  passthroughHandler(http.get('*/v1/legacy', () => HttpResponse.json({ legacy: true }))),
]
