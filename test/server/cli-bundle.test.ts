import { existsSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// The bundle is what users run (`bin`, `npm start`); the test run builds it when stale (globalSetup).
const BUNDLE = new URL('../../dist/cli/petstore-sandbox.js', import.meta.url)
/** What scripts/bundle-cli.mjs bundled, by esbuild's metafile (not published). */
const META = new URL('../../.build/cli-meta.json', import.meta.url)
const README_CONFIG = 'examples/readme/petstore-sandbox.config.mjs'

// A module hook that reports every module Node resolves, as `RESOLVED <url>` on stderr.
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  process.stderr.write('RESOLVED ' + resolved.url + '\\\\n')
  return resolved
}\`))
`)}`
const resolvedBy = (stderr: string): string[] =>
  [...stderr.matchAll(/^RESOLVED (\S+)$/gm)].map((match) => match[1] ?? '')

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

  // Issue 20, start-up: Node pays for every module file a start loads.
  it('loads one file of its own to serve, the control API included, and msw only for your handlers', async () => {
    const run = spawnCli(['--port', '0', '--quiet'], { NODE_OPTIONS: `--import=${HOOK}` }, 'bundle')
    const origin = await serverOrigin(run)
    const pets = await fetch(`${origin}/v1/pets`, {
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(pets.status).toBe(200)
    expect((await fetch(`${origin}/__sandbox/requests`)).status).toBe(200)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    const own = resolvedBy(run.stderr()).filter((url) => !url.startsWith('node:'))
    expect(own).toEqual([BUNDLE.href])

    // Your own handlers load msw, bundled apart in dist/cli/msw/.
    const withHandlers = spawnCli(
      ['--port', '0', '--quiet', '--config', README_CONFIG],
      { NODE_OPTIONS: `--import=${HOOK}` },
      'bundle',
    )
    const handlersOrigin = await serverOrigin(withHandlers)
    const categories = await fetch(`${handlersOrigin}/v1/categories`, {
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(await categories.json()).toEqual([{ id: 1, name: 'Cats' }])
    withHandlers.child.kill('SIGTERM')
    expect(await withHandlers.exited).toBe(0)
    expect(resolvedBy(withHandlers.stderr())).toContain(
      new URL('../../dist/cli/msw/msw.js', import.meta.url).href,
    )
  }, 30_000)

  it('carries one zod build, zod/mini, with no locale but English, and neither msw nor GraphQL', () => {
    const meta = JSON.parse(readFileSync(META, 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>
    }
    const output = meta.outputs['dist/cli/petstore-sandbox.js']
    expect(output).toBeDefined()
    // What carries code (esbuild leaves an empty init stub of zod's locales/index.js).
    const inputs = Object.entries(output?.inputs ?? {})
      .filter(([, { bytesInOutput }]) => bytesInOutput > 100)
      .map(([input]) => input)
    expect(
      inputs.filter((input) => input.includes('node_modules/zod/v4/mini/')).length,
    ).toBeGreaterThan(0)
    expect(inputs.filter((input) => input.includes('node_modules/zod/v4/classic/'))).toEqual([])
    expect(inputs.filter((input) => input.includes('node_modules/zod/v4/locales/'))).toEqual([
      'node_modules/zod/v4/locales/en.js',
    ])
    expect(inputs.filter((input) => /node_modules\/(msw|graphql)\//.test(input))).toEqual([])
    // Classic zod's constructors are named without "Mini"; its error map names every locale.
    const code = readFileSync(BUNDLE, 'utf8')
    expect(code).not.toContain('"ZodISODateTime"')
    expect(code).not.toContain('"ZodString"')
  })
})
