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

type Inflater = ReturnType<typeof Zlib.createGunzip>

/** A streaming decoder for the answer's Content-Encoding; null for none, undefined for one it cannot read. */
const inflaterFor = (
  zlib: typeof Zlib,
  encoding: string | undefined,
): Inflater | null | undefined => {
  const name = encoding?.trim().toLowerCase()
  if (name === undefined || name === '' || name === 'identity') return null
  if (name === 'gzip' || name === 'x-gzip') return zlib.createGunzip()
  if (name === 'deflate') return zlib.createInflate()
  if (name === 'br') return zlib.createBrotliDecompress()
  return undefined
}

const headersOf = (res: IncomingMessage): [string, string][] => {
  const listed = connectionTokens(res.headers.connection)
  const headers: [string, string][] = []
  const raw = res.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string
    if (!isHopByHop(name.toLowerCase(), listed)) headers.push([name, raw[i + 1] as string])
  }
  return headers
}

/**
 * Reads an answer's body as it arrives, at most `limit` bytes as received and
 * `limit` once decoded: a compressed body is inflated by a zlib stream beside
 * it (off the event loop, never a whole buffer at once), so a gzip bomb stops
 * at the limit with bounded memory. The text is undefined for an identity
 * body (the core decodes the bytes), '' for an encoding it cannot read.
 */
const readAnswer = (
  zlib: typeof Zlib,
  res: IncomingMessage,
  limit: number,
  signal: AbortSignal,
): Promise<UpstreamReply> =>
  new Promise((resolve) => {
    const inflater = inflaterFor(zlib, res.headers['content-encoding'])
    const chunks: Buffer[] = []
    const inflated: Buffer[] = []
    let size = 0
    let inflatedSize = 0
    let settled = false
    let received = false
    let decodeFailed = inflater === undefined
    const stop = (reply: UpstreamReply | undefined): void => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      if (reply === undefined || reply.kind !== 'answer') {
        // Not reading on: the connection is not reused, the inflater freed.
        res.destroy()
        inflater?.destroy()
      }
      if (reply !== undefined) resolve(reply)
    }
    const onAbort = (): void => stop(undefined)
    signal.addEventListener('abort', onAbort, { once: true })
    const finish = (): void => {
      if (settled || !received) return
      if (inflater && !decodeFailed && !inflater.readableEnded) return
      const body = Buffer.concat(chunks)
      let text: string | undefined
      if (inflater === null) text = undefined
      else if (decodeFailed) text = ''
      else text = Buffer.concat(inflated).toString('utf8')
      stop({
        kind: 'answer',
        status: res.statusCode ?? 502,
        headers: headersOf(res),
        body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
        text,
      })
    }
    const declared = Number(res.headers['content-length'])
    if (declared > limit) return stop({ kind: 'too-large', decoded: false })
    if (inflater) {
      inflater.on('data', (chunk: Buffer) => {
        inflatedSize += chunk.byteLength
        if (inflatedSize > limit) stop({ kind: 'too-large', decoded: true })
        else inflated.push(chunk)
      })
      inflater.on('end', finish)
      // An encoding the sandbox cannot read: the validator says the body is not JSON.
      inflater.on('error', () => {
        decodeFailed = true
        finish()
      })
    }
    res.on('data', (chunk: Buffer) => {
      if (settled) return
      size += chunk.byteLength
      if (size > limit) return stop({ kind: 'too-large', decoded: false })
      chunks.push(chunk)
      if (inflater && !decodeFailed) inflater.write(chunk)
    })
    res.on('end', () => {
      received = true
      if (inflater && !decodeFailed) inflater.end()
      finish()
    })
    res.on('error', (error) =>
      stop({ kind: 'unavailable', reason: `the answer broke off (${describe(error)})` }),
    )
    res.on('aborted', () => stop({ kind: 'unavailable', reason: 'the answer broke off' }))
  })

/**
 * Forwards over node:http(s) with keep-alive agents, so a busy sandbox keeps
 * its connections to the upstream open (the added latency is the point of
 * issue 19's benchmark). Header names and repeated headers come back as
 * received (`rawHeaders`); the body is read as it streams in, bounded by
 * `maxBodyBytes` raw and decoded (issue 31); a request on a kept-alive connection the upstream
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
        resolve(readAnswer(zlib, res, request.maxBodyBytes, request.signal))
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
