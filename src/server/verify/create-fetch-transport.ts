import { PACKAGE_NAME, PACKAGE_VERSION } from '../../contract/package-info.js'
import { TransportFailure, type VerifyTransport } from '../../verify/verify-types.js'

const TLS_CODES =
  /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|EPROTO$|HOSTNAME_MISMATCH)/

const causeOf = (error: unknown): { code?: string; message?: string } => {
  const cause = (error as { cause?: unknown } | null)?.cause
  return typeof cause === 'object' && cause !== null
    ? (cause as { code?: string; message?: string })
    : {}
}

/** What went wrong, in words a user acts on. */
const describeFailure = (error: unknown, url: URL, timeoutMs: number): TransportFailure => {
  const name = (error as { name?: string } | null)?.name
  if (name === 'TimeoutError' || name === 'AbortError')
    return new TransportFailure('timeout', `no answer within ${timeoutMs} ms (--timeout)`)
  const cause = causeOf(error)
  const code = cause.code ?? ''
  const detail = cause.message ?? (error instanceof Error ? error.message : String(error))
  if (TLS_CODES.test(code) || /ssl|tls|certificate/i.test(detail))
    return new TransportFailure(
      'tls',
      `TLS failed (${code === '' ? detail : `${code}: ${detail}`})`,
    )
  if (code === 'ECONNREFUSED')
    return new TransportFailure('network', `connection refused by ${url.host} (is it running?)`)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new TransportFailure('network', `the host ${url.hostname} was not found (DNS)`)
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return new TransportFailure('network', `the connection was closed before an answer (${code})`)
  return new TransportFailure(
    'network',
    `the request failed (${code === '' ? detail : `${code}: ${detail}`})`,
  )
}

/** The default of `--max-body`: the largest answer body `verify` reads (1 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576

/**
 * The body as text, read chunk by chunk and given up (the stream cancelled)
 * as soon as it passes `maxBytes`: a huge or endless answer costs at most that.
 */
const readCapped = async (response: Response, maxBytes: number): Promise<string> => {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  const tooLarge = () =>
    new TransportFailure(
      'network',
      `the answer's body passed ${maxBytes} bytes (--max-body); verify stopped reading it`,
    )
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {})
    throw tooLarge()
  }
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The transport of `verify` in Node: fetch with a timeout per request (the
 * answer's body included, read up to `maxBodyBytes`), no redirects followed (a 3xx is the target's
 * answer), and every failure to answer as a TransportFailure saying why.
 *
 * @example
 * const transport = createFetchTransport({ baseUrl: 'https://staging.example/v1', timeoutMs: 10_000 })
 */
export const createFetchTransport = (options: {
  baseUrl: string
  timeoutMs: number
  /** The largest answer body read (default 1 MiB): a larger one is a TransportFailure. */
  maxBodyBytes?: number
}): VerifyTransport => {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const base = options.baseUrl.replace(/\/+$/, '')
  return async (request) => {
    const url = new URL(`${base}${request.path}`)
    try {
      const response = await fetch(url, {
        method: request.method,
        headers: {
          accept: 'application/json',
          'user-agent': `${PACKAGE_NAME}-verify/${PACKAGE_VERSION}`,
          ...request.headers,
        },
        body: request.body ?? null,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      const body = await readCapped(response, maxBodyBytes)
      return { status: response.status, headers: Object.fromEntries(response.headers), body }
    } catch (error) {
      if (error instanceof TransportFailure) throw error
      throw describeFailure(error, url, options.timeoutMs)
    }
  }
}
