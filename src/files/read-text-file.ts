import { constants as bufferConstants } from 'node:buffer'
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'

const MiB = 1024 * 1024

/**
 * How much each file the CLI and the Node runtimes read may hold (decision
 * 0057). A config or a timeline is a few kilobytes; a data file or a
 * recording may be large, but no larger than the longest string Node can
 * make (512 MiB on 64-bit Node 20-24), past which it could not be read anyway.
 */
export const FILE_LIMITS = {
  config: 16 * MiB,
  timeline: 1 * MiB,
  dataFile: bufferConstants.MAX_STRING_LENGTH,
  recording: bufferConstants.MAX_STRING_LENGTH,
} as const

/** Why a file could not be read, as a phrase that follows "Failed to read FILE: ". */
export class TextFileError extends Error {
  override name = 'TextFileError'
  constructor(
    message: string,
    /** `missing` (ENOENT), `not-a-file` (a directory, FIFO, socket or device), `too-large`, `unreadable` (any other error). */
    readonly reason: 'missing' | 'not-a-file' | 'too-large' | 'unreadable',
  ) {
    super(message)
  }
}

const sizeText = (bytes: number): string =>
  bytes >= MiB ? `${Math.round((bytes / MiB) * 10) / 10} MiB` : `${bytes} bytes`

const CHUNK = MiB

/** The system's words, on one line (`EACCES: permission denied, open 'x.json'`). */
const unreadable = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')

/**
 * Reads a regular file as UTF-8 text, at most `maxBytes` of it. Only a
 * regular file is read: a FIFO, a socket, a device (`/dev/zero`) or a
 * directory is refused before a byte is read (opened without blocking, so a
 * FIFO without a writer does not hang), and a file longer than `maxBytes` is
 * refused, even one that grows while it is read (never more than `maxBytes`
 * + 1 bytes are read). Throws a TextFileError whose message is one line:
 * `no such file`, `it is not a regular file (…)`, `it is larger than …`.
 * Every option that names a file to read goes through it: --config,
 * --timeline, --data, --replay, and --record's existing file.
 *
 * @example
 * const text = readTextFile('outage.json', FILE_LIMITS.timeline)
 */
export const readTextFile = (path: string, maxBytes: number): string => {
  let fd: number
  try {
    // Without O_NONBLOCK, opening a FIFO for reading waits for a writer, forever.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new TextFileError('no such file', 'missing')
    throw new TextFileError(unreadable(error), 'unreadable')
  }
  try {
    const info = fstatSync(fd)
    if (!info.isFile())
      throw new TextFileError(
        'it is not a regular file (a directory, FIFO, socket or device)',
        'not-a-file',
      )
    const tooLarge = (): TextFileError =>
      new TextFileError(
        `it is larger than ${sizeText(maxBytes)}, the most this file may hold`,
        'too-large',
      )
    if (info.size > maxBytes) throw tooLarge()
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total))
      const read = readSync(fd, buffer, 0, buffer.length, null)
      if (read === 0) break
      chunks.push(buffer.subarray(0, read))
      total += read
      if (total > maxBytes) throw tooLarge()
    }
    return Buffer.concat(chunks, total).toString('utf8')
  } catch (error) {
    if (error instanceof TextFileError) throw error
    throw new TextFileError(unreadable(error), 'unreadable')
  } finally {
    closeSync(fd)
  }
}
