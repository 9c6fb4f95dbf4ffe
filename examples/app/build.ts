import { copyFile, mkdir, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url))

/** Where `npm run example:app` builds to (gitignored). */
export const DEFAULT_OUTDIR = here('./dist')

// The app imports the package by its name, as a user would; here it resolves to the source.
const sandboxFromSource: Plugin = {
  name: 'petstore-sandbox-from-source',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^petstore-sandbox\/browser$/ }, () => ({
      path: here('../../src/runtimes/browser.ts'),
    }))
  },
}

/**
 * Builds the example app into `outdir`: the bundle (the sandbox in its own
 * chunk, loaded only with `?mock=worker`), the page, and MSW's
 * `mockServiceWorker.js` copied from the installed msw, never committed.
 *
 * @example
 * const outdir = await buildExampleApp()
 */
export const buildExampleApp = async (outdir: string = DEFAULT_OUTDIR): Promise<string> => {
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  await build({
    entryPoints: [here('./src/main.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [sandboxFromSource],
  })
  await copyFile(here('./index.html'), `${outdir}/index.html`)
  const worker = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
  await copyFile(worker, `${outdir}/mockServiceWorker.js`)
  return outdir
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`Built the example app into ${await buildExampleApp()}`)
}
