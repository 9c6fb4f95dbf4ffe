import express from 'express'
import { createSandboxCore, sandboxMiddleware } from 'petstore-sandbox/server'

/**
 * Your own express app with the Pet Store sandbox mounted in it: `/v1/*` is
 * the sandbox, every other route is yours.
 *
 * @example
 * createApp().listen(3000) // GET http://localhost:3000/v1/pets, GET http://localhost:3000/health
 */
export const createApp = () => {
  const sandbox = createSandboxCore({ seed: 42, pets: 5 })
  const app = express()
  // Mount before body parsers, so the sandbox sees the raw body (malformed JSON included).
  app.use(sandboxMiddleware(sandbox))
  app.use(express.json())
  app.get('/health', (_req, res) => {
    res.json({ ok: true, pets: sandbox.db.pets.count })
  })
  return { app, sandbox }
}
