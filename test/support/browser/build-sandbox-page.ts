import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { parse } from 'yaml'

const PAGE =
  '<!doctype html><meta charset="utf-8"><title>sandbox page</title><script type="module" src="/page.js"></script>'

/**
 * Bundles test/support/browser/sandbox-page.ts into a fresh temporary folder,
 * with an index.html, MSW's mockServiceWorker.js and extras.json (the OpenAPI
 * document examples/openapi/petstore-extras.yaml as JSON, for `?openapi`), ready to serve.
 *
 * @example
 * const root = await buildSandboxPage()
 * const server = await serveStatic({ root })
 */
export const buildSandboxPage = async (): Promise<string> => {
  const outdir = await mkdtemp(join(tmpdir(), 'petstore-sandbox-page-'))
  await build({
    entryPoints: [fileURLToPath(new URL('./sandbox-page.ts', import.meta.url))],
    outfile: join(outdir, 'page.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  })
  await writeFile(join(outdir, 'index.html'), PAGE)
  const extras = parse(await readFile('examples/openapi/petstore-extras.yaml', 'utf8'))
  await writeFile(join(outdir, 'extras.json'), JSON.stringify(extras))
  const worker = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
  await copyFile(worker, join(outdir, 'mockServiceWorker.js'))
  return outdir
}
