import type { Page } from 'playwright-core'
import { headerPairs, type WireRequest, type WireResponse } from '../../conformance/parts/target.js'

interface PageRequest {
  url: string
  method: string
  /** Pairs: a repeated header once per value, joined by the page's fetch as by any. */
  headers: [string, string][]
  text: string | null
  bytes: number[] | null
}

/**
 * Sends a request with `fetch` inside the page, as the app would, and brings
 * the response back. A failed fetch (a network error) rejects.
 *
 * @example
 * const response = await sendFromPage(page, 'http://127.0.0.1:4000/v1', { method: 'GET', path: '/pets' })
 */
export const sendFromPage = async (
  page: Page,
  baseUrl: string,
  request: WireRequest,
): Promise<WireResponse> => {
  const { body } = request
  const input: PageRequest = {
    url: `${baseUrl}${request.path}`,
    method: request.method,
    headers: headerPairs(request.headers),
    text: typeof body === 'string' ? body : null,
    bytes: body instanceof Uint8Array ? Array.from(body) : null,
  }
  return page.evaluate(async ({ url, method, headers, text, bytes }: PageRequest) => {
    const response = await fetch(url, {
      method,
      headers,
      body: bytes === null ? text : new Uint8Array(bytes),
    })
    const responseHeaders: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value
    })
    return { status: response.status, headers: responseHeaders, body: await response.text() }
  }, input)
}
