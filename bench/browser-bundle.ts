import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'

const ROOT = new URL('../', import.meta.url).pathname

/**
 * What an app pays for the sandbox in its browser bundle: `startSandbox` from
 * the built package (dist/), bundled and minified with esbuild as a Vite or
 * esbuild user would (code splitting on, as both do for dynamic imports),
 * against msw's own `setupWorker` with one trivial handler bundled the same way.
 *
 * What counts is what loads at start: the entry and every chunk it imports
 * statically, each file gzipped as a server sends it. Chunks behind a dynamic
 * `import()` (the client-behaviour report, the expectation diff, coverage)
 * load only when used and are reported apart (decision 0032).
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

/** One output file of the bundle. */
export interface BundleChunk {
  file: string
  minified: number
  gzip: number
  code: string
}

export interface BundleSize {
  /** What loads at start: the entry and its static imports. */
  minified: number
  gzip: number
  /** Bytes loaded at start per package (`src` for our own code). */
  byPackage: Record<string, number>
  /** The code that loads at start. */
  code: string
  /** Chunks that load only through a dynamic `import()`, largest first. */
  lazy: BundleChunk[]
}

const gzipSize = (code: string): number => gzipSync(code, { level: 9 }).byteLength

export const bundleBrowserApp = async (source: string): Promise<BundleSize> => {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts', sourcefile: 'app.ts' },
    bundle: true,
    minify: true,
    splitting: true,
    outdir: '/virtual',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    legalComments: 'none',
    alias: { 'petstore-sandbox/browser': './dist/runtimes/browser.js' },
    logLevel: 'error',
  })
  // Output files are named by their base name in both lists (the folder is virtual).
  const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1)
  const texts = new Map(result.outputFiles.map((file) => [baseName(file.path), file.text]))
  const outputs = result.metafile.outputs
  const textOf = (output: string): string => texts.get(baseName(output)) ?? ''
  const entry = Object.keys(outputs).find((output) => outputs[output]?.entryPoint !== undefined)
  if (entry === undefined) throw new Error('Failed to measure the bundle: esbuild made no entry.')

  // The entry and what it imports statically, transitively: what the page loads at start.
  const initial = new Set<string>()
  const visit = (output: string): void => {
    if (initial.has(output)) return
    initial.add(output)
    for (const imported of outputs[output]?.imports ?? [])
      if (imported.kind === 'import-statement' && imported.external !== true) visit(imported.path)
  }
  visit(entry)
  const chunk = (file: string): BundleChunk => {
    const code = textOf(file)
    return { file: baseName(file), minified: Buffer.byteLength(code), gzip: gzipSize(code), code }
  }
  const start = [...initial].map(chunk)
  const lazy = Object.keys(outputs)
    .filter((file) => file.endsWith('.js') && !initial.has(file))
    .map(chunk)
    .sort((a, b) => b.gzip - a.gzip)
  return {
    minified: start.reduce((sum, c) => sum + c.minified, 0),
    gzip: start.reduce((sum, c) => sum + c.gzip, 0),
    byPackage: bytesByPackage(result.metafile, initial),
    code: start.map((c) => c.code).join('\n'),
    lazy,
  }
}

const bytesByPackage = (metafile: Metafile, files: ReadonlySet<string>): Record<string, number> => {
  const sizes: Record<string, number> = {}
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!files.has(file)) continue
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? 'src'
      sizes[name] = (sizes[name] ?? 0) + bytesInOutput
    }
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
  console.log('| bundle (loaded at start) | minified | gzip |')
  console.log('| --- | --- | --- |')
  console.log(`| msw setupWorker, one handler (baseline) | ${kb(msw.minified)} | ${kb(msw.gzip)} |`)
  console.log(
    `| petstore-sandbox startSandbox | ${kb(sandbox.minified)} (${(sandbox.minified / msw.minified).toFixed(2)}x) | ${kb(sandbox.gzip)} (${(sandbox.gzip / msw.gzip).toFixed(2)}x, +${kb(sandbox.gzip - msw.gzip)}; target +94 KB) |`,
  )
  for (const chunk of sandbox.lazy)
    console.log(`| (lazy) ${chunk.file} | ${kb(chunk.minified)} | ${kb(chunk.gzip)} |`)
  const top = Object.entries(sandbox.byPackage)
    .slice(0, 8)
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
  console.log(`\nLargest parts loaded at start (minified): ${top.join(', ')}`)
}
