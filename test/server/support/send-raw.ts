import { request } from 'node:http'
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * One request with exactly the headers given (Host and Origin included,
 * which fetch would set itself), over loopback.
 *
 * @example
 * const answer = await sendHttp(origin, { method: 'GET', path: '/__sandbox/keys', headers: { host: 'evil.test' } })
 */
export const sendHttp = (
  origin: string,
  input: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin)
    const req = request(
      {
        host: hostname,
        port: Number(port),
        method: input.method ?? 'GET',
        path: input.path,
        // Framed like any client would: node's client sends a DELETE's body without Content-Length.
        headers:
          input.body === undefined
            ? (input.headers ?? {})
            : { 'content-length': String(Buffer.byteLength(input.body)), ...input.headers },
        setHost: input.headers?.host === undefined,
        agent: false,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(input.body)
  })

/**
 * Sends raw bytes and resolves with everything the server answers before it
 * closes the connection (or `waitMs` passes; then the socket is destroyed).
 *
 * @example
 * const text = await sendRaw(origin, 'GET / HTTP/1.1\r\n\r\n')
 */
export const sendRaw = (
  origin: string,
  bytes: string,
  options: { end?: boolean; waitMs?: number } = {},
): Promise<{ text: string; closed: boolean }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin)
    const socket = connect(Number(port), hostname, () => {
      if (options.end === false) socket.write(bytes)
      else socket.end(bytes)
    })
    let text = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ text, closed: false })
    }, options.waitMs ?? 5_000)
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ text, closed: true })
    })
    socket.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })

/** The JSON body of a raw HTTP/1.1 answer. */
export const jsonOf = (text: string): unknown =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))
