import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTextFile, TextFileError } from '../../src/files/read-text-file.js'

// Issue 37 item 16: the one reader of --config, --timeline, --data, --replay and --record's
// existing file reads only a regular file, and at most its limit.
const newDir = (): string => mkdtempSync(join(tmpdir(), 'read-text-file-'))

const refusal = (path: string, maxBytes = 1024): TextFileError => {
  try {
    readTextFile(path, maxBytes)
  } catch (error) {
    if (error instanceof TextFileError) return error
    throw error
  }
  throw new Error(`${path} was read`)
}

describe('readTextFile', () => {
  it('reads a regular file up to its limit, whole, as UTF-8', () => {
    const file = join(newDir(), 'a.json')
    writeFileSync(file, '{"name":"Zoë ✓"}')
    expect(readTextFile(file, Buffer.byteLength('{"name":"Zoë ✓"}'))).toBe('{"name":"Zoë ✓"}')
  })

  it('refuses a file one byte past its limit, without reading it', () => {
    const file = join(newDir(), 'big.json')
    writeFileSync(file, 'x'.repeat(1025))
    const error = refusal(file, 1024)
    expect(error.reason).toBe('too-large')
    expect(error.message).toBe('it is larger than 1024 bytes, the most this file may hold')
  })

  it('refuses /dev/zero (a device) at once, where readFileSync read until 3 GB', () => {
    const error = refusal('/dev/zero')
    expect(error.reason).toBe('not-a-file')
    expect(error.message).toMatch(
      /^it is not a regular file \(a directory, FIFO, socket or device\)$/,
    )
  })

  it('refuses a FIFO without waiting for a writer (a blocking open hung forever)', () => {
    const fifo = join(newDir(), 'timeline.json')
    execFileSync('mkfifo', [fifo])
    // Synchronous: a hang here would hang the test, as it hung the CLI.
    expect(refusal(fifo).reason).toBe('not-a-file')
  })

  it('refuses a directory, and says when the file is missing', () => {
    const dir = newDir()
    expect(refusal(dir).reason).toBe('not-a-file')
    expect([
      refusal(join(dir, 'none.json')).reason,
      refusal(join(dir, 'none.json')).message,
    ]).toEqual(['missing', 'no such file'])
  })
})
