import {
  closeSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { type HarEntry, toHAR } from '../journal/to-har.js'
import type { RecordAppender } from '../upstream/upstream-options.js'
import { isProcessRunning } from './is-process-running.js'
import { RecordingFileError } from './recording-file-error.js'
import { rewriteAsRecording } from './rewrite-as-recording.js'

// The recording's layout (docs/upstream.md): the archive's head on a line of its own, one entry
// per line (each after the first starting with a comma), and the tail. Valid HAR after each
// append; after a kill mid-append, everything up to the last newline is whole entries.
const [HEAD_TEXT = '', TAIL_TEXT = ''] = JSON.stringify(toHAR([])).split('"entries":[]')
export const RECORDING_HEAD = `${HEAD_TEXT}"entries":[\n`
export const RECORDING_TAIL = `]${TAIL_TEXT}\n`
const CHUNK = 64 * 1024

const fail = (path: string, reason: string): never => {
  throw new RecordingFileError(`Failed to record to ${path}: ${reason}`)
}

/** Reads `length` bytes at `position`, as far as the file has them. */
const readAt = (fd: number, position: number, length: number): Buffer => {
  const buffer = Buffer.alloc(length)
  const read = readSync(fd, buffer, 0, length, position)
  return buffer.subarray(0, read)
}

/** The offset just past the last newline at or before `end`, or -1 for none (read backwards). */
const lastNewline = (fd: number, end: number, floor: number): number => {
  let to = end
  while (to > floor) {
    const from = Math.max(floor, to - CHUNK)
    const at = readAt(fd, from, to - from).lastIndexOf(10)
    if (at !== -1) return from + at + 1
    to = from
  }
  return -1
}

/**
 * Where the next entry goes in an existing recording, and whether it has
 * entries; a recording cut short by a kill is truncated to its last whole
 * entry first. A HAR in another layout (pretty-printed, a browser's export)
 * is rewritten once into this one, every entry kept; a file that is not HAR
 * is refused and left as it is.
 */
const resume = (path: string, fd: number, size: number): { end: number; entries: boolean } => {
  const head = readAt(fd, 0, RECORDING_HEAD.length).toString('utf8')
  if (head !== RECORDING_HEAD) {
    // Another layout (pretty-printed, another tool's): rewritten once into this one, every entry kept.
    const rewritten = rewriteAsRecording(path, RECORDING_HEAD, RECORDING_TAIL)
    return { end: rewritten.size - RECORDING_TAIL.length, entries: rewritten.entries }
  }
  const tail = readAt(fd, size - RECORDING_TAIL.length, RECORDING_TAIL.length).toString('utf8')
  let end = size - RECORDING_TAIL.length
  if (size < RECORDING_HEAD.length + RECORDING_TAIL.length || tail !== RECORDING_TAIL) {
    // Killed while appending: keep the whole lines, drop the part of the last one.
    end = Math.max(RECORDING_HEAD.length, lastNewline(fd, size, RECORDING_HEAD.length))
    writeSync(fd, RECORDING_TAIL, end)
  }
  return { end, entries: end > RECORDING_HEAD.length }
}

/**
 * Temporary files an earlier version's recorder left when killed mid-rewrite
 * (`.<name>.<pid>.<n>.tmp` beside the file), of processes no longer running.
 */
const removeStaleTemps = (path: string): void => {
  const prefix = `.${basename(path)}.`
  let names: string[]
  try {
    names = readdirSync(dirname(path))
  } catch {
    return
  }
  for (const name of names) {
    const match = name.startsWith(prefix) ? /\.([0-9]+)\.[0-9]+\.tmp$/.exec(name) : null
    if (match === null || (Number(match[1]) !== process.pid && isProcessRunning(Number(match[1]))))
      continue
    try {
      unlinkSync(join(dirname(path), name))
    } catch {}
  }
}

/**
 * `--record FILE`: appends each recorded entry to FILE as it comes, one line
 * each, in place (no temporary file, no rewrite), so memory holds only the
 * entry being written whatever the recording's length, and the file is valid
 * HAR 1.2 after every append. An existing recording of the sandbox's is
 * appended to (one cut short by a kill is repaired first), another HAR
 * rewritten once into the layout keeping its entries; a file that is not HAR
 * is refused at start, never replaced. Appends are written one at a time,
 * in order.
 *
 * @example
 * const appender = openHarAppender('./staging.har')
 * await appender.append(entry)
 */
export const openHarAppender = (path: string): RecordAppender & { flush(): Promise<void> } => {
  removeStaleTemps(path)
  // An existing FIFO, socket, device or directory is refused before it is opened (decision 0057).
  let existing: ReturnType<typeof statSync> | undefined
  try {
    existing = statSync(path)
  } catch {}
  if (existing !== undefined && !existing.isFile())
    fail(path, 'it is not a regular file (a directory, FIFO, socket or device).')
  let fd: number
  try {
    fd = openSync(path, 'a+')
    closeSync(fd)
    fd = openSync(path, 'r+')
  } catch (error) {
    return fail(path, `${(error as NodeJS.ErrnoException).code ?? String(error)}.`)
  }
  let state: { end: number; entries: boolean }
  try {
    const { size } = statSync(path)
    if (size === 0) {
      writeSync(fd, `${RECORDING_HEAD}${RECORDING_TAIL}`, 0)
      state = { end: RECORDING_HEAD.length, entries: false }
    } else state = resume(path, fd, size)
  } finally {
    closeSync(fd)
  }
  let queue: Promise<void> = Promise.resolve()
  const write = async (entry: HarEntry): Promise<void> => {
    const line = Buffer.from(`${state.entries ? ',' : ''}${JSON.stringify(entry)}\n`)
    const file = await open(path, 'r+')
    try {
      // The entry and the tail in one write at the tail's place.
      await file.write(Buffer.concat([line, Buffer.from(RECORDING_TAIL)]), 0, undefined, state.end)
    } finally {
      await file.close()
    }
    state = { end: state.end + line.byteLength, entries: true }
  }
  return {
    append(entry) {
      const written = queue.then(() => write(entry))
      queue = written.catch(() => {})
      return written
    },
    flush: () => queue,
  }
}
