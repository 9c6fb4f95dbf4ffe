import { request as httpRequest } from 'node:http'
import type { WireRequest, WireResponse } from '../conformance/parts/target.js'

/**
 * Sends a request with node:http, whose repeated headers go on lines of their
 * own (`headers: { authorization: ['Bearer a', 'Bearer b'] }` is two lines),
 * as a raw HTTP client sends them; `fetch` would join them on one line.
 *
 * @example
 * await sendOverNodeHttp(`${origin}/v1/pets`, { method: 'GET', path: '/pets', headers })
 */
export const sendOverNodeHttp = (url: string, request: WireRequest): Promise<WireResponse> =>
  new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: request.method,
        headers: request.headers as Record<string, string | string[]>,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, value]) => [
                name,
                Array.isArray(value) ? value.join(', ') : (value ?? ''),
              ]),
            ),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        response.on('error', reject)
      },
    )
    sent.on('error', reject)
    sent.end(request.body)
  })
