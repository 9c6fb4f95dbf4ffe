import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'

const ROOT = new URL('../', import.meta.url).pathname

/**
 * What an app pays for the sandbox in its browser bundle: `startSandbox` from
 * the built package (dist/), bundled and minified with esbuild as a Vite or
 * esbuild user would, against msw's own `setupWorker` with one trivial handler.
 */
export const SANDBOX_APP = `
import { startSandbox } from 'petstore-sandbox/browser'
await startSandbox()
`
export const PLAIN_MSW_APP = `
import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'
await setupWorker(http.get('/v1/pets', () => HttpResponse.json([]))).start()
`

export interface BundleSize {
  minified: number
  gzip: number
  /** Bytes in the minified output per package (`src` for our own code). */
  byPackage: Record<string, number>
  code: string
}

export const bundleBrowserApp = async (source: string): Promise<BundleSize> => {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    legalComments: 'none',
    alias: { 'petstore-sandbox/browser': './dist/runtimes/browser.js' },
    logLevel: 'error',
  })
  const code = result.outputFiles[0]?.text ?? ''
  return {
    minified: Buffer.byteLength(code),
    gzip: gzipSync(code, { level: 9 }).byteLength,
    byPackage: bytesByPackage(result.metafile),
    code,
  }
}

const bytesByPackage = (metafile: Metafile): Record<string, number> => {
  const sizes: Record<string, number> = {}
  for (const output of Object.values(metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? 'src'
      sizes[name] = (sizes[name] ?? 0) + bytesInOutput
    }
  return Object.fromEntries(Object.entries(sizes).sort((a, b) => b[1] - a[1]))
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`

/** `npm run bench -- bundle`. */
export const run = async (): Promise<void> => {
  const [sandbox, msw] = await Promise.all([
    bundleBrowserApp(SANDBOX_APP),
    bundleBrowserApp(PLAIN_MSW_APP),
  ])
  console.log('| bundle | minified | gzip |')
  console.log('| --- | --- | --- |')
  console.log(`| msw setupWorker, one handler (baseline) | ${kb(msw.minified)} | ${kb(msw.gzip)} |`)
  console.log(
    `| petstore-sandbox startSandbox | ${kb(sandbox.minified)} (${(sandbox.minified / msw.minified).toFixed(2)}x) | ${kb(sandbox.gzip)} (${(sandbox.gzip / msw.gzip).toFixed(2)}x, +${kb(sandbox.gzip - msw.gzip)}; target +84 KB) |`,
  )
  const top = Object.entries(sandbox.byPackage)
    .slice(0, 8)
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
  console.log(`\nLargest parts of the sandbox bundle (minified): ${top.join(', ')}`)
}
