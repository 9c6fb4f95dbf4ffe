import type { IncomingMessage } from 'node:http'

/** What reading a request body found. */
export type BodyReadResult =
  | { kind: 'body'; body: Uint8Array | null }
  /** The body is over the cap: declared by Content-Length, or found once the cap was passed. */
  | { kind: 'too-large' }
  /** The client went away (or sent a broken body) before the end. */
  | { kind: 'aborted' }

const EMPTY = { kind: 'body', body: null } as const

/**
 * Reads a request body, holding at most `cap + 1` bytes: a declared
 * Content-Length over the cap is refused before any byte is read, and a
 * chunked body stops being read as soon as it passes the cap.
 *
 * @example
 * const read = await readRequestBody(req, LIMITS.maxBodyBytes)
 * if (read.kind === 'too-large') // answer 413 and close
 */
export const readRequestBody = (req: IncomingMessage, cap: number): Promise<BodyReadResult> => {
  const now = readRequestBodyNow(req, cap)
  return now === undefined ? readStream(req, cap) : Promise.resolve(now)
}

/**
 * What can be known of a body without waiting (none, or too large by its
 * Content-Length); undefined when it must be read: the server's hot path
 * answers a GET without a microtask (decision 0021).
 *
 * @example
 * const read = readRequestBodyNow(req, cap) ?? (await readRequestBody(req, cap))
 */
export const readRequestBodyNow = (
  req: IncomingMessage,
  cap: number,
): BodyReadResult | undefined => {
  const declared = req.headers['content-length']
  const chunked = req.headers['transfer-encoding'] !== undefined
  if (!chunked) {
    if (declared === undefined || declared === '0') return EMPTY
    // node:http has already rejected a non-numeric or conflicting Content-Length.
    if (Number(declared) > cap) return { kind: 'too-large' }
  }
  return req.readableEnded ? EMPTY : undefined
}

const readStream = (req: IncomingMessage, cap: number): Promise<BodyReadResult> => {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (result: BodyReadResult): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onAbort)
      req.off('aborted', onAbort)
      resolve(result)
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength
      chunks.push(chunk)
      if (size > cap) {
        // Stop buffering; the rest is drained (not kept) until the answer closes the connection.
        req.pause()
        finish({ kind: 'too-large' })
      }
    }
    const onEnd = (): void => {
      if (size === 0) finish(EMPTY)
      else
        finish({
          kind: 'body',
          body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
        })
    }
    const onAbort = (): void => finish({ kind: 'aborted' })
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onAbort)
    req.on('aborted', onAbort)
  })
}
