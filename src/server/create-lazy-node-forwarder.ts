import type { UpstreamRequest } from '../http/forwarder.js'
import type { NodeForwarder } from './forward-with-node-http.js'

/**
 * The server's forwarder to the upstream (node:http and node:https over
 * keep-alive connections), imported on the first forwarded request: a start
 * parses neither it nor node:https and node:zlib (issue 20). A failed import
 * rejects `forward`, which the core answers as an unavailable upstream.
 *
 * @example
 * const forwarder = createLazyNodeForwarder()
 * const reply = await forwarder.forward(request)
 * forwarder.close()
 */
export const createLazyNodeForwarder = (): NodeForwarder => {
  let loaded: Promise<NodeForwarder> | undefined
  let closed = false
  const load = (): Promise<NodeForwarder> => {
    loaded ??= import('./forward-with-node-http.js').then(({ createNodeForwarder }) =>
      createNodeForwarder(),
    )
    return loaded
  }
  return {
    forward: async (request: UpstreamRequest) => (await load()).forward(request),
    close() {
      if (closed) return
      closed = true
      // Connections exist only once something was forwarded.
      loaded?.then(
        (forwarder) => forwarder.close(),
        () => {},
      )
    },
  }
}
