import { existsSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { seedPets } from '../../src/db/seed-pets.js'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// The bundle is what users run (`bin`, `npm start`); the test run builds it when stale (globalSetup).
const BUNDLE = new URL('../../dist/cli/petstore-sandbox.js', import.meta.url)
/** What scripts/bundle-cli.mjs bundled, by esbuild's metafile (not published). */
const META = new URL('../../.build/cli-meta.json', import.meta.url)
const README_CONFIG = 'examples/readme/petstore-sandbox.config.mjs'

// A module hook that reports every module Node resolves, as `RESOLVED <url>` on stderr. The hooks
// run on their own thread, whose process.stderr is piped through the main thread and may lose its
// last lines when the process exits (`report --help`): the hook writes to fd 2 synchronously.
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`
import { writeSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  writeSync(2, 'RESOLVED ' + resolved.url + '\\\\n')
  return resolved
}\`))
`)}`
const resolvedBy = (stderr: string): string[] =>
  [...stderr.matchAll(/^RESOLVED (\S+)$/gm)].map((match) => match[1] ?? '')

interface Metafile {
  outputs: Record<
    string,
    {
      inputs: Record<string, { bytesInOutput: number }>
      imports: { path: string; kind: string; external?: boolean }[]
    }
  >
}
const meta = (): Metafile => JSON.parse(readFileSync(META, 'utf8')) as Metafile
const ENTRY = 'dist/cli/petstore-sandbox.js'
const urlOf = (output: string): string => new URL(`../../${output}`, import.meta.url).href

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
  it('loads two files to serve, the control API included; the lazy parts and msw only when used', async () => {
    const outputs = meta().outputs
    const atStart = (outputs[ENTRY]?.imports ?? [])
      .filter((i) => i.kind === 'import-statement' && !i.external)
      .map((i) => i.path)
    expect(atStart).toHaveLength(1)

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
    expect(own).toEqual([BUNDLE.href, ...atStart.map(urlOf)])

    // A part loaded on demand (here `report`) loads the one chunk of lazy parts, and nothing more.
    const report = spawnCli(['report', '--help'], { NODE_OPTIONS: `--import=${HOOK}` }, 'bundle')
    expect(await report.exited).toBe(0)
    const lazy = resolvedBy(report.stderr()).filter(
      (url) => !url.startsWith('node:') && !own.includes(url),
    )
    expect(lazy).toHaveLength(1)
    expect(lazy[0]).toMatch(/\/dist\/cli\/chunks\/petstore-sandbox_lazy-parts-[A-Z0-9]+\.js$/)

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

  it('seeds the pets the sources seed: the default seed from its build-time preset, any other with faker loaded then', async () => {
    // No faker in what a start loads: the default seed's pets were computed at build time.
    const outputs = meta().outputs
    const atStart = [
      ENTRY,
      ...(outputs[ENTRY]?.imports ?? [])
        .filter((i) => i.kind === 'import-statement' && !i.external)
        .map((i) => i.path),
    ]
    for (const file of atStart)
      expect(
        Object.keys(outputs[file]?.inputs ?? {}).filter((i) => i.includes('@faker-js')),
      ).toEqual([])
    for (const [args, options] of [
      [[], {}],
      [['--pets', '40'], { count: 40 }],
      [['--seed', '7', '--pets', '30'], { seed: 7, count: 30 }],
    ] as const) {
      const run = spawnCli(['--port', '0', '--quiet', ...args], {}, 'bundle')
      const origin = await serverOrigin(run)
      const pets = (await (
        await fetch(`${origin}/v1/pets?limit=100`, {
          headers: { authorization: 'Bearer sandbox-free' },
        })
      ).json()) as unknown[]
      expect(pets).toEqual(seedPets(options).map((pet, index) => ({ id: index + 1, ...pet })))
      run.child.kill('SIGTERM')
      expect(await run.exited).toBe(0)
    }
  }, 30_000)

  it('carries one zod build, zod/mini, with no locale but English, and neither msw nor GraphQL', () => {
    // Every file of the CLI's (msw's bundle apart); what carries code (esbuild can leave an
    // empty stub of zod's locales/index.js).
    const outputs = Object.entries(meta().outputs)
    expect(outputs.map(([file]) => file)).toContain(ENTRY)
    const inputs = outputs.flatMap(([, output]) =>
      Object.entries(output.inputs)
        .filter(([, { bytesInOutput }]) => bytesInOutput > 100)
        .map(([input]) => input),
    )
    expect(inputs.some((input) => input.includes('node_modules/zod/v4/mini/'))).toBe(true)
    expect(inputs.filter((input) => input.includes('node_modules/zod/v4/classic/'))).toEqual([])
    expect(
      new Set(inputs.filter((input) => input.includes('node_modules/zod/v4/locales/'))),
    ).toEqual(new Set(['node_modules/zod/v4/locales/en.js']))
    expect(inputs.filter((input) => /node_modules\/(msw|graphql)\//.test(input))).toEqual([])
    // Classic zod's constructors are named without "Mini"; its error map names every locale.
    for (const [file] of outputs) {
      const code = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
      expect(code).not.toContain('"ZodISODateTime"')
      expect(code).not.toContain('"ZodString"')
    }
  })
})
