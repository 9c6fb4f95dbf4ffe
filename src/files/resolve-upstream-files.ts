import { replayArchiveProblem } from '../upstream/check-replay-archive.js'
import type { HarInput, UpstreamOptions } from '../upstream/upstream-options.js'
import { openHarAppender, RECORDING_HEAD, RECORDING_TAIL } from './open-har-appender.js'
import { FILE_LIMITS, readTextFile, TextFileError } from './read-text-file.js'
import { RecordingFileError } from './recording-file-error.js'

/** The `upstream` option with its file paths turned into what the core takes. */
export interface UpstreamFiles {
  option: string | UpstreamOptions | undefined
  /** Resolves once the recording file holds every recorded answer. */
  flush(): Promise<void>
}

const readHarFile = (path: string): HarInput => {
  let text: string
  try {
    text = readTextFile(path, FILE_LIMITS.recording)
  } catch (error) {
    if (!(error instanceof TextFileError)) throw error
    // A missing file is a usage error (2); a file that is not one, or too large, the file's fault (1).
    const message = `Failed to read the recording ${path}: ${error.message}. Record one with --record FILE (or the record option), or export one from the browser's devtools.`
    throw error.reason === 'missing' ? new TypeError(message) : new RecordingFileError(message)
  }
  let har: unknown
  try {
    har = JSON.parse(text)
  } catch (error) {
    har = repairedRecording(text)
    if (har === undefined)
      throw new RecordingFileError(
        `Failed to read the recording ${path}: it is not JSON (${error instanceof Error ? error.message : String(error)}). Give a HAR file.`,
      )
  }
  const problem = isHarInput(har)
    ? replayArchiveProblem(har)
    : 'it is not a HAR archive (it needs log.entries, a list)'
  if (problem !== undefined)
    throw new RecordingFileError(
      `Failed to read the recording ${path}: ${problem}. Fix or remove the entry, or record again.`,
    )
  return har as HarInput
}

const isHarInput = (value: unknown): value is HarInput =>
  Array.isArray((value as { log?: { entries?: unknown } } | null)?.log?.entries)

/**
 * A recording of the sandbox's cut short by a kill mid-append: its whole
 * entries (every line up to the last newline), closed; undefined for any other text.
 */
const repairedRecording = (text: string): unknown => {
  if (!text.startsWith(RECORDING_HEAD)) return undefined
  const end = Math.max(RECORDING_HEAD.length, text.lastIndexOf('\n') + 1)
  try {
    return JSON.parse(`${text.slice(0, end)}${RECORDING_TAIL}`)
  } catch {
    return undefined
  }
}

/**
 * For the Node runtimes (the server, `setupSandbox`): `record: 'FILE'` becomes
 * an appender that adds each forwarded answer to FILE as it comes (an
 * existing recording appended to, another file refused), `replay: 'FILE'` the archive read from FILE now, so a
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
  const file = typeof option.record === 'string' ? openHarAppender(option.record) : undefined
  return {
    option: {
      ...option,
      ...(file === undefined ? {} : { record: file }),
      ...(typeof option.replay === 'string' ? { replay: readHarFile(option.replay) } : {}),
    },
    flush: async () => {
      await file?.flush()
    },
  }
}
