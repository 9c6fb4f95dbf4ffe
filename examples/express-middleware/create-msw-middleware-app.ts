import { createMiddleware } from '@mswjs/http-middleware'
import express from 'express'
import { createSandbox } from 'petstore-sandbox'

/**
 * Your express app serving the sandbox's MSW handlers through MSW's own
 * `@mswjs/http-middleware`, for apps that already serve MSW handlers that
 * way. `sandboxMiddleware` (create-app.ts) answers the same, faster: it skips
 * the Fetch objects.
 *
 * @example
 * createMswMiddlewareApp().app.listen(3000)
 */
export const createMswMiddlewareApp = () => {
  const sandbox = createSandbox({ seed: 42, pets: 5 })
  const app = express()
  // @mswjs/http-middleware is CommonJS, so TypeScript sees msw's CommonJS typings
  // there and its ES-module typings here: the same class, declared twice. The
  // handlers are msw's at run time; only the declarations differ.
  const handlers = sandbox.handlers as unknown as Parameters<typeof createMiddleware>
  app.use(createMiddleware(...handlers))
  app.get('/health', (_req, res) => {
    res.json({ ok: true })
  })
  return { app, sandbox }
}
