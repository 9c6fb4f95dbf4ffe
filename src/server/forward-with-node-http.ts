import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import type * as Https from 'node:https'
import type * as Zlib from 'node:zlib'
import type { Forwarder, UpstreamReply, UpstreamRequest } from '../http/forwarder.js'
import { connectionTokens, isHopByHop } from '../http/hop-by-hop.js'

/** The server's forwarder: node:http(s) over keep-alive connections, closed with the server. */
export interface NodeForwarder {
  forward: Forwarder
  /** Closes the pooled connections. */
  close(): void
}

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

const describe = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code
  const message = error instanceof Error ? error.message : String(error)
  return code === undefined ? message : `${code} (${message})`
}

/**
 * node:https and node:zlib, imported with the first forwarded request: a server
 * without an upstream never loads them (issue 20: start-up).
 */
interface LateModules {
  https: typeof Https
  zlib: typeof Zlib
}
let lateModules: Promise<LateModules> | undefined
const loadLateModules = (): Promise<LateModules> => {
  lateModules ??= Promise.all([import('node:https'), import('node:zlib')]).then(
    ([https, zlib]) => ({ https, zlib }),
  )
  return lateModules
}

/** The body as text when it is compressed (the validator and the journal read text); else undefined. */
const decodedText = (
  { brotliDecompressSync, gunzipSync, inflateSync }: typeof Zlib,
  encoding: string | undefined,
  body: Buffer,
): string | undefined => {
  const name = encoding?.trim().toLowerCase()
  if (name === undefined || name === '' || name === 'identity') return undefined
  try {
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(body).toString('utf8')
    if (name === 'deflate') return inflateSync(body).toString('utf8')
    if (name === 'br') return brotliDecompressSync(body).toString('utf8')
  } catch {}
  // An encoding the sandbox cannot read: the validator says the body is not JSON.
  return ''
}

const toReply = (res: IncomingMessage, body: Buffer, zlib: typeof Zlib): UpstreamReply => {
  const listed = connectionTokens(res.headers.connection)
  const headers: [string, string][] = []
  const raw = res.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string
    if (!isHopByHop(name.toLowerCase(), listed)) headers.push([name, raw[i + 1] as string])
  }
  return {
    kind: 'answer',
    status: res.statusCode ?? 502,
    headers,
    body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    text: decodedText(zlib, res.headers['content-encoding'], body),
  }
}

/**
 * Forwards over node:http(s) with keep-alive agents, so a busy sandbox keeps
 * its connections to the upstream open (the added latency is the point of
 * issue 19's benchmark). Header names and repeated headers come back as
 * received (`rawHeaders`); a request on a kept-alive connection the upstream
 * had closed meanwhile is sent again once, when it is idempotent.
 *
 * @example
 * const upstream = createNodeForwarder()
 * await sandbox.answerRequest(request, { forward: upstream.forward })
 */
export const createNodeForwarder = (): NodeForwarder => {
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 })
  let httpsAgent: Https.Agent | undefined
  let closed = false
  const send = async (request: UpstreamRequest, again: boolean): Promise<UpstreamReply> => {
    const { https, zlib } = await loadLateModules()
    if (!closed) httpsAgent ??= new https.Agent({ keepAlive: true, maxSockets: 256 })
    return new Promise((resolve) => {
      const url = new URL(request.url)
      const secure = url.protocol === 'https:'
      const headers: Record<string, string> = {}
      for (const name in request.headers) headers[name] = request.headers[name] as string
      if (request.body !== null) headers['content-length'] = String(request.body.byteLength)
      const client = (secure ? https.request : httpRequest)(url, {
        method: request.method,
        headers,
        agent: secure ? httpsAgent : httpAgent,
        signal: request.signal,
      })
      client.on('response', (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve(toReply(res, Buffer.concat(chunks), zlib)))
        res.on('error', (error) =>
          resolve({ kind: 'unavailable', reason: `the answer broke off (${describe(error)})` }),
        )
      })
      client.on('error', (error) => {
        const reset = (error as NodeJS.ErrnoException).code === 'ECONNRESET'
        if (again && reset && client.reusedSocket && IDEMPOTENT.has(request.method))
          resolve(send(request, false))
        else resolve({ kind: 'unavailable', reason: describe(error) })
      })
      client.end(request.body === null ? undefined : request.body)
    })
  }
  return {
    forward: (request) => send(request, true),
    close() {
      closed = true
      httpAgent.destroy()
      httpsAgent?.destroy()
    },
  }
}
