import { existsSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// The bundle is what users run (`bin`, `npm start`); the test run builds it when stale (globalSetup).
const BUNDLE = new URL('../../dist/cli/petstore-sandbox.js', import.meta.url)

afterAll(() => killAllChildren())

describe('the bundled CLI (dist/cli/petstore-sandbox.js)', () => {
  it('exists: npm ci or npm run build made it', () => {
    expect(existsSync(BUNDLE), 'run `npm run build` first').toBe(true)
  })

  it('serves the API, its control API and the OpenAPI document, and exits 0 on SIGTERM', async () => {
    const run = spawnCli(['--port', '0', '--quiet'], {}, 'bundle')
    const origin = await serverOrigin(run)
    const pets = await fetch(`${origin}/v1/pets?limit=2`, {
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(pets.status).toBe(200)
    expect(((await pets.json()) as unknown[]).length).toBe(2)
    const document = await fetch(`${origin}/__sandbox/openapi.json`)
    expect(document.status).toBe(200)
    expect(((await document.json()) as { openapi: string }).openapi).toBe('3.1.0')
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })
})
