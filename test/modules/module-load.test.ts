import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedPets } from '../../src/db/seed-pets.js'
import { installPacked, ROOT } from '../support/install-packed.js'

// The package as a user gets it: `npm pack` (what `files` publishes; dist is
// built by the test run's globalSetup), unpacked into a fresh project's
// node_modules beside its dependencies, each entry imported by name in a fresh
// Node process. A dependency is "loaded" when Node loads a file of it from
// node_modules (msw, the external peer) or when a dist file Node loaded holds
// its code (the bundled ones; esbuild's metafile says which).

const PACKAGES = ['msw', '@faker-js/faker', '@msw/data', 'zod'] as const
type Package = (typeof PACKAGES)[number]
/**
 * What each entry loads: the target of issue 11. The server and Playwright
 * entries never load msw (they answer through the core, not MSW handlers).
 */
const EXPECTED: Record<string, Record<Package, boolean>> = {
  // faker loads only for a seed or count the build's preset does not hold (decision 0051).
  'petstore-sandbox': { msw: true, '@faker-js/faker': false, '@msw/data': true, zod: true },
  'petstore-sandbox/node': { msw: true, '@faker-js/faker': false, '@msw/data': true, zod: true },
  'petstore-sandbox/playwright': {
    msw: false,
    '@faker-js/faker': false,
    '@msw/data': true,
    zod: true,
  },
  'petstore-sandbox/server': { msw: false, '@faker-js/faker': false, '@msw/data': true, zod: true },
  // The matchers (issue 23) read a sandbox's journal through its controls: no dependency.
  'petstore-sandbox/matchers': {
    msw: false,
    '@faker-js/faker': false,
    '@msw/data': false,
    zod: false,
  },
}
/** Not loadable in Node (the exports map gives it `node: null`): read from the bundle instead. */
const BROWSER_EXPECTED: Record<Package, boolean> = {
  msw: true,
  '@faker-js/faker': false,
  '@msw/data': true,
  zod: true,
}

interface Metafile {
  outputs: Record<
    string,
    {
      inputs: Record<string, unknown>
      imports: { path: string; kind: string; external?: boolean }[]
    }
  >
}
const meta = (): Metafile =>
  JSON.parse(readFileSync(join(ROOT, '.build/meta.json'), 'utf8')) as Metafile

const packageOf = (path: string): string | undefined =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1]

/**
 * Packages whose code is inside these dist files, and the external packages
 * they import statically (a dynamic `import('msw')` loads only when it runs).
 */
const packagesInOutputs = (outputs: string[]): Set<string> => {
  const found = new Set<string>()
  const { outputs: all } = meta()
  for (const output of outputs) {
    const entry = all[output]
    if (entry === undefined) throw new Error(`${output} is not in the build's metafile`)
    for (const input of Object.keys(entry.inputs)) {
      const name = packageOf(input)
      if (name !== undefined) found.add(name)
    }
    for (const imported of entry.imports) {
      if (imported.external === true && imported.kind === 'import-statement')
        found.add(imported.path.replace(/^((@[^/]+\/)?[^/]+).*$/, '$1'))
    }
  }
  return found
}

/** The dist files statically reachable from an entry (its chunks included). */
const reachableOutputs = (entry: string): string[] => {
  const { outputs } = meta()
  const seen = new Set<string>()
  const visit = (output: string): void => {
    if (seen.has(output)) return
    seen.add(output)
    for (const imported of outputs[output]?.imports ?? [])
      if (imported.external !== true && imported.kind === 'import-statement') visit(imported.path)
  }
  visit(entry)
  return [...seen]
}

let project = ''

beforeAll(() => {
  project = installPacked('petstore-sandbox-modules-')
}, 60_000)

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true })
})

/** Imports `specifier` in a fresh Node process in the user's project; the module URLs it loaded. */
const importInFreshNode = (specifier: string, then = ''): { urls: string[]; stdout: string } => {
  const record = join(project, `loads-${specifier.replace(/\W/g, '_')}.txt`)
  writeFileSync(record, '')
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      join(ROOT, 'test/modules/record-loads.mjs'),
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(specifier)}); ${then}`,
    ],
    {
      cwd: project,
      env: { ...process.env, RECORD_LOADS_TO: record, NODE_OPTIONS: '' },
      encoding: 'utf8',
      timeout: 30_000,
    },
  )
  if (run.status !== 0) throw new Error(`importing ${specifier} failed:\n${run.stderr}`)
  return { urls: readFileSync(record, 'utf8').split('\n').filter(Boolean), stdout: run.stdout }
}

const loadedPackages = (urls: string[]): Record<Package, boolean> => {
  const installed = join(project, 'node_modules/petstore-sandbox/')
  const found = new Set<string>()
  const distFiles: string[] = []
  for (const url of urls) {
    if (!url.startsWith('file:')) continue
    const path = fileURLToPath(url)
    if (path.startsWith(installed)) distFiles.push(path.slice(installed.length))
    else {
      const name = packageOf(path)
      if (name !== undefined) found.add(name)
    }
  }
  for (const name of packagesInOutputs(distFiles.filter((file) => file.endsWith('.js'))))
    found.add(name)
  return Object.fromEntries(PACKAGES.map((name) => [name, found.has(name)])) as Record<
    Package,
    boolean
  >
}

describe('what each package entry loads (npm pack, installed, a fresh Node process each)', () => {
  for (const [specifier, expected] of Object.entries(EXPECTED)) {
    it(`${specifier} loads ${PACKAGES.filter((name) => expected[name]).join(', ') || 'none of them'}`, () => {
      const { urls } = importInFreshNode(specifier)
      expect(urls.some((url) => url.includes('/node_modules/petstore-sandbox/dist/'))).toBe(true)
      expect(loadedPackages(urls)).toEqual(expected)
    })
  }

  it('petstore-sandbox/browser is not exported to Node; its bundle holds msw, @msw/data and zod at start, faker behind import()', () => {
    expect(() => importInFreshNode('petstore-sandbox/browser')).toThrow(
      /ERR_PACKAGE_PATH_NOT_EXPORTED/,
    )
    const found = packagesInOutputs(reachableOutputs('dist/runtimes/browser.js'))
    expect(Object.fromEntries(PACKAGES.map((name) => [name, found.has(name)]))).toEqual(
      BROWSER_EXPECTED,
    )
  })

  it('bundles every dependency but msw, the two msw shares with @msw/data, and ioredis (imported only when a Redis store is used)', () => {
    const imports = Object.entries(meta().outputs).flatMap(([output, { imports }]) =>
      imports.filter((i) => i.external === true).map((i) => ({ ...i, output })),
    )
    const others = imports.filter((i) => !i.path.startsWith('node:') && !i.path.startsWith('msw'))
    // rettime and outvariant: one copy with msw's in an app's bundle (decision 0034).
    expect([...new Set(others.map((i) => `${i.path} ${i.kind}`))].sort()).toEqual([
      'ioredis dynamic-import',
      'outvariant import-statement',
      'rettime import-statement',
      'vitest import-statement',
    ])
    // vitest is the user's own, imported by petstore-sandbox/vitest only (to extend its expect).
    expect(others.filter((i) => i.path === 'vitest').map((i) => i.output)).toEqual([
      'dist/runtimes/vitest.js',
    ])
  })

  it('the installed server explains bad control bodies and data files in its own words, never zod’s', () => {
    const dataFile = join(project, 'broken-data.json')
    writeFileSync(dataFile, JSON.stringify({ version: 6, nextId: 1, pets: [] }))
    const { stdout } = importInFreshNode(
      'petstore-sandbox/server',
      `const app = m.createSandboxServer({});
       const { url } = await app.listen(0, '127.0.0.1');
       const keys = await fetch(url + '/__sandbox/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ plan: 'pro', perMinute: 'x' }) });
       const data = await m.readDataFile(${JSON.stringify(dataFile)}).then(() => 'loaded', (error) => error.message);
       console.log(JSON.stringify([keys.status, (await keys.json()).details, data]));
       await app.close();`,
    )
    const [status, details, dataError] = JSON.parse(stdout.trim()) as [number, unknown, string]
    expect(status).toBe(400)
    // The same words in the built package as in the sources (src/http/describe-issue.ts).
    expect(details).toEqual([
      { field: 'perMinute', message: 'must be a number, got the string "x"' },
    ])
    expect(dataError).toContain('version must be one of 1, 2, 3, 4, 5, got the number 6')
    expect(`${JSON.stringify(details)} ${dataError}`).not.toMatch(
      /Invalid input|expected \w+, received/,
    )
  })

  it('the installed server finds the OpenAPI document and seeds the pets the sources seed', () => {
    const { stdout } = importInFreshNode(
      'petstore-sandbox/server',
      `const app = m.createSandboxServer({ seed: 11, pets: 100 });
       const { url } = await app.listen(0, '127.0.0.1');
       const pets = await fetch(url + '/v1/pets?limit=100', { headers: { authorization: 'Bearer sandbox-free' } });
       const doc = await fetch(url + '/__sandbox/openapi.json');
       console.log(JSON.stringify([pets.status, await pets.json(), doc.status, (await doc.json()).openapi]));
       await app.close();`,
    )
    const expected = seedPets({ seed: 11, count: 100 }).map((pet, i) => ({ id: i + 1, ...pet }))
    expect(JSON.parse(stdout.trim())).toEqual([200, expected, 200, '3.1.0'])
  })

  it('the installed package seeds the default pets from its preset without loading faker, and another seed with faker, both as the sources seed them', () => {
    const { stdout } = importInFreshNode(
      'petstore-sandbox',
      `const { createRequire } = await import('node:module');
       const fakerFiles = () => Object.keys(createRequire(process.cwd() + '/').cache).filter((file) => file.includes('faker'));
       const { setupServer } = await import('msw/node');
       const get = async (sandbox, path) => {
         const server = setupServer(...sandbox.handlers); server.listen();
         const response = await fetch('https://api.example.test' + path, { headers: { authorization: 'Bearer sandbox-free' } });
         server.close();
         return response.json();
       };
       const preset = m.createSandbox({ scenario: 'paginated' });
       const defaults = await get(preset, '/v1/pets?limit=100');
       const before = fakerFiles();
       const seeded = m.createSandbox({ seed: 11, pets: 30 });
       console.log(JSON.stringify([defaults.length, defaults[99], before, await get(seeded, '/v1/pets?limit=100'), fakerFiles()]));`,
    )
    const [count, hundredth, before, eleven, after] = JSON.parse(stdout.trim()) as [
      number,
      unknown,
      string[],
      unknown,
      string[],
    ]
    // The paginated scenario's 250 pets: the first 100 equal the sources' default seed.
    expect(count).toBe(100)
    expect(hundredth).toEqual({ id: 100, ...seedPets({ count: 250 })[99] })
    expect(before).toEqual([])
    expect(eleven).toEqual(
      seedPets({ seed: 11, count: 30 }).map((pet, i) => ({ id: i + 1, ...pet })),
    )
    // Seed 11 needed faker: the CLI's CommonJS SimpleFaker, not the whole package.
    expect(after).toEqual([join(project, 'node_modules/petstore-sandbox/dist/cli/seed-faker.cjs')])
  })
})
