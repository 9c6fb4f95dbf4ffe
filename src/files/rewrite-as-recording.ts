import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { FILE_LIMITS, readTextFile, TextFileError } from './read-text-file.js'
import { RecordingFileError } from './recording-file-error.js'

let tempCounter = 0

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The entries of a HAR archive's text, or why it is not one. */
const entriesOf = (text: string): unknown[] | string => {
  let har: unknown
  try {
    har = JSON.parse(text)
  } catch (error) {
    // One line: the parser quotes the file's start, newlines included.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')
    return `it is not JSON (${reason})`
  }
  const log = isObject(har) ? har.log : undefined
  if (!isObject(log) || !Array.isArray(log.entries))
    return 'it is not a HAR archive (no log.entries array)'
  const at = log.entries.findIndex((entry) => !isObject(entry))
  return at === -1 ? log.entries : `its entry ${at} is not an object`
}

/**
 * Rewrites an existing HAR archive in another layout (pretty-printed, a
 * browser's or another tool's export, an older sandbox's) into the
 * recording's (`head`, one entry per line, `tail`), keeping every entry as it
 * was, in order; `log`'s other fields (`pages`, `creator`, `browser`,
 * `comment`) are not kept. Done once, when recording starts: the file is read
 * whole, written beside it (`.<name>.<pid>.<n>.tmp`, synced) and renamed over
 * it, so a crash leaves the old file or the new one, never half of either; a
 * symlink is written through and the file's mode kept. A file that is not
 * HAR is refused and left as it is. Returns the new file's size and whether it
 * has entries.
 *
 * @example
 * const { size, entries } = rewriteAsRecording('./chrome-export.har', RECORDING_HEAD, RECORDING_TAIL)
 */
export const rewriteAsRecording = (
  path: string,
  head: string,
  tail: string,
): { size: number; entries: boolean } => {
  const target = realpathSync(path)
  let existing: string
  try {
    existing = readTextFile(target, FILE_LIMITS.recording)
  } catch (error) {
    if (!(error instanceof TextFileError)) throw error
    throw new RecordingFileError(`Failed to record to ${path}: ${error.message}.`)
  }
  const entries = entriesOf(existing)
  if (typeof entries === 'string')
    throw new RecordingFileError(
      `Failed to record to ${path}: the file exists and ${entries}, so the sandbox cannot append to it. It was left as it is: record to another file, or move it away.`,
    )
  const text = `${head}${entries.map((entry, i) => `${i === 0 ? '' : ','}${JSON.stringify(entry)}\n`).join('')}${tail}`
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${++tempCounter}.tmp`)
  const fd = openSync(temp, 'w', 0o644)
  try {
    // The file's mode, not open's (the umask must not change what the user chose).
    fchmodSync(fd, statSync(target).mode & 0o7777)
    writeSync(fd, text, 0, 'utf8')
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    try {
      unlinkSync(temp)
    } catch {}
    throw error
  }
  closeSync(fd)
  renameSync(temp, target)
  return { size: Buffer.byteLength(text), entries: entries.length > 0 }
}
