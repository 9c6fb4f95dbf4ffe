import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  close(): Promise<void>
}

/**
 * Serves a folder over HTTP on loopback (port 0: any free port). Only GET and
 * HEAD; `/` is `index.html`; paths cannot leave the folder.
 *
 * @example
 * const server = await serveStatic({ root: 'examples/app/dist' })
 * console.log(server.origin)
 */
export const serveStatic = async (options: {
  root: string
  port?: number
}): Promise<StaticServer> => {
  const root = normalize(options.root)
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path))
    const found =
      file.startsWith(root + sep) && (request.method === 'GET' || request.method === 'HEAD')
        ? await stat(file).catch(() => undefined)
        : undefined
    if (found === undefined || !found.isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found')
      return
    }
    response.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
    })
    if (request.method === 'HEAD') response.end()
    else createReadStream(file).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
