import { afterAll, beforeAll } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../src/server/index.js'

/** Real documents no one here wrote (test/openapi/fixtures/real, issue 35). */
export const REAL_DOCUMENTS = [
  'test/openapi/fixtures/real/github-issues-gists.json',
  'test/openapi/fixtures/real/airflow.json',
  'test/openapi/fixtures/real/microcks.yaml',
  'test/openapi/fixtures/real/xkcd.yaml',
]
const REAL_DOCUMENT_KEY = { authorization: 'Bearer real-documents' }

/** An operation the document added, as the served document lists it. */
export interface AddedOperation {
  method: string
  path: string
  operation: string
}

export interface RealDocumentServer {
  readonly app: SandboxServer<string>
  readonly base: string
  readonly added: readonly AddedOperation[]
  /** The operation's URL, every path parameter `1`. */
  url(op: AddedOperation, query?: string): string
  /** Sends the operation with the key (or `headers`), a `{}` body where it takes one. */
  send(op: AddedOperation, query?: string, headers?: Record<string, string>): Promise<Response>
}

/**
 * A standalone server with `openapi: document` for the describe block it is
 * called in (started before its tests, closed after), and the operations its
 * served document (`/__sandbox/openapi.json`) marks as the document's.
 *
 * @example
 * describe.each(REAL_DOCUMENTS)('%s', (document) => {
 *   const real = useRealDocumentServer(document)
 *   it('answers', async () => expect((await real.send(real.added[0])).status).toBe(200))
 * })
 */
export const useRealDocumentServer = (document: string): RealDocumentServer => {
  let app: SandboxServer<string> | undefined
  let base = ''
  let added: AddedOperation[] = []
  const url = (op: AddedOperation, query = '') =>
    `${base}/v1${op.path.replace(/\{[^}]+\}/g, '1')}${query}`

  beforeAll(async () => {
    app = createSandboxServer({
      openapi: document,
      keys: { 'real-documents': { plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 } },
    })
    base = (await app.listen(0, '127.0.0.1')).url
    const served = await (await fetch(`${base}/__sandbox/openapi.json`)).json()
    added = Object.entries(
      served.paths as Record<string, Record<string, Record<string, unknown>>>,
    ).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => typeof op === 'object' && op?.['x-sandbox-source'] === 'openapi')
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          operation: String(op.operationId ?? `${method.toUpperCase()} ${path}`),
        })),
    )
  })
  afterAll(() => app?.close())

  return {
    get app() {
      if (app === undefined) throw new Error('The real-document server starts in beforeAll.')
      return app
    },
    get base() {
      return base
    },
    get added() {
      return added
    },
    url,
    send: (op, query = '', headers = REAL_DOCUMENT_KEY) =>
      fetch(url(op, query), {
        method: op.method,
        headers: {
          ...headers,
          ...(op.method === 'GET' ? {} : { 'content-type': 'application/json' }),
        },
        ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: '{}' }),
      }),
  }
}
