import { writeFileAtomically } from './write-file-atomically.js'

/** Writes a file from a snapshot of its text, one write at a time. */
export interface TextFileWriter {
  /**
   * Resolves once a write that started after this call is on disk, so the
   * caller's change is in it. Concurrent calls share writes.
   */
  write(): Promise<void>
  /** Resolves when no write is pending. */
  flush(): Promise<void>
}

/**
 * A serialized, coalescing writer: at most one write runs; calls made while
 * it runs share the next one, which takes its snapshot when it starts. So a
 * stale snapshot never lands over a newer one, and a burst of changes costs
 * two writes, not one each. Each write is atomic (`writeFileAtomically`).
 *
 * @example
 * const writer = createTextFileWriter('./pets.json', () => JSON.stringify(store.snapshot()))
 * store.subscribe(() => writer.write())
 */
export const createTextFileWriter = (
  path: string,
  snapshot: () => string,
  newFileMode?: number,
): TextFileWriter => {
  let running: Promise<void> | undefined
  let next: Promise<void> | undefined

  const start = (): Promise<void> => {
    const write = writeFileAtomically(path, snapshot(), newFileMode)
    running = write
    const clear = (): void => {
      if (running === write) running = undefined
    }
    write.then(clear, clear)
    return write
  }

  return {
    write() {
      if (next !== undefined) return next
      if (running === undefined) return start()
      next = running
        .catch(() => {})
        .then(() => {
          next = undefined
          return start()
        })
      return next
    },
    async flush() {
      while (running !== undefined || next !== undefined) {
        await (next ?? running)?.catch(() => {})
      }
    },
  }
}
