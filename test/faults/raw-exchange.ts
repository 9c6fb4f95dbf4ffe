import { connect } from 'node:net'

/** What a raw TCP client saw of one exchange: the bytes, how the connection ended, and when. */
export interface RawExchange {
  /** Everything received, as bytes. */
  bytes: Buffer
  /** `fin`: a clean close; `reset`: ECONNRESET (TCP RST). */
  end: 'fin' | 'reset'
  /** Ms from sending to the close. */
  ms: number
  /** Ms from sending to each chunk received. */
  chunkTimes: number[]
  status: number | undefined
  /** Header names lower-cased. */
  headers: Record<string, string>
  /** The bytes after the head. */
  body: Buffer
}

/**
 * Sends `request` (HTTP/1.1 text) over a plain socket and reads until the
 * server ends the connection, noting a reset apart from a clean close.
 * `giveUpAfterBytes` closes the client's side once that many body bytes came.
 *
 * @example
 * const seen = await rawExchange(origin, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n')
 */
export const rawExchange = (
  origin: string,
  request: string,
  options: { giveUpAfterBytes?: number } = {},
): Promise<RawExchange> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin)
    const started = performance.now()
    const chunks: Buffer[] = []
    const chunkTimes: number[] = []
    let end: 'fin' | 'reset' = 'fin'
    const socket = connect(Number(port), hostname, () => socket.write(request))
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      chunkTimes.push(performance.now() - started)
      const limit = options.giveUpAfterBytes
      if (limit !== undefined) {
        const all = Buffer.concat(chunks)
        const head = all.indexOf('\r\n\r\n')
        if (head !== -1 && all.byteLength - head - 4 >= limit) socket.destroy()
      }
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') end = 'reset'
      else reject(error)
    })
    socket.on('close', () => {
      const bytes = Buffer.concat(chunks)
      const split = bytes.indexOf('\r\n\r\n')
      const headText = split === -1 ? bytes.toString('latin1') : bytes.subarray(0, split).toString()
      const [statusLine = '', ...lines] = headText.split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]
      resolve({
        bytes,
        end,
        ms: performance.now() - started,
        chunkTimes,
        status: status === undefined ? undefined : Number(status),
        headers,
        body: split === -1 ? Buffer.alloc(0) : bytes.subarray(split + 4),
      })
    })
  })

/** An HTTP/1.1 request's text with the enterprise demo key. */
export const requestText = (
  method: string,
  target: string,
  options: { body?: string; key?: string | null } = {},
): string => {
  const key = options.key === undefined ? 'sandbox-enterprise' : options.key
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
  if (key !== null) lines.push(`Authorization: Bearer ${key}`)
  if (options.body !== undefined) {
    lines.push(
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(options.body)}`,
    )
  }
  return `${lines.join('\r\n')}\r\n\r\n${options.body ?? ''}`
}
