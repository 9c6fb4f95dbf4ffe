import { readFileSync } from 'node:fs'
import type { Har } from '../journal/to-har.js'
import type { HarInput, RecordSink, UpstreamOptions } from '../upstream/upstream-options.js'
import { createTextFileWriter } from './create-text-file-writer.js'

/** The `upstream` option with its file paths turned into what the core takes. */
export interface UpstreamFiles {
  option: string | UpstreamOptions | undefined
  /** Resolves once the recording file holds every recorded answer. */
  flush(): Promise<void>
}

const readHarFile = (path: string): HarInput => {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new TypeError(
      `Failed to read the recording ${path}: ${code === 'ENOENT' ? 'no such file' : String(error)}. Record one with --record FILE (or the record option), or export one from the browser's devtools.`,
    )
  }
  try {
    return JSON.parse(text) as HarInput
  } catch (error) {
    throw new TypeError(
      `Failed to read the recording ${path}: it is not JSON (${error instanceof Error ? error.message : String(error)}). Give a HAR file.`,
    )
  }
}

const fileSink = (path: string): { sink: RecordSink; flush: () => Promise<void> } => {
  let latest: Har | undefined
  const writer = createTextFileWriter(path, () => `${JSON.stringify(latest, null, 2)}\n`)
  return {
    sink: (har) => {
      latest = har
      return writer.write()
    },
    flush: () => writer.flush(),
  }
}

/**
 * For the Node runtimes (the server, `setupSandbox`): `record: 'FILE'` becomes
 * a sink that rewrites FILE atomically after each forwarded answer
 * (coalescing bursts), `replay: 'FILE'` the archive read from FILE now, so a
 * missing or broken file fails at start with its reason.
 *
 * @example
 * const files = resolveUpstreamFiles({ url, record: './staging.har' })
 * const sandbox = createSandboxCore({ upstream: files.option })
 * await files.flush()
 */
export const resolveUpstreamFiles = (
  option: string | UpstreamOptions | undefined,
): UpstreamFiles => {
  if (option === undefined || typeof option !== 'object' || option === null)
    return { option, flush: async () => {} }
  const file = typeof option.record === 'string' ? fileSink(option.record) : undefined
  return {
    option: {
      ...option,
      ...(file === undefined ? {} : { record: file.sink }),
      ...(typeof option.replay === 'string' ? { replay: readHarFile(option.replay) } : {}),
    },
    flush: async () => {
      await file?.flush()
    },
  }
}
