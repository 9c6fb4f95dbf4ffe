import { createReadStream } from 'node:fs'
import type { JournalEntry } from '../journal/journal.js'
import { createHarEntryStream } from '../judge/har-entry-stream.js'

/** How `report --from` and `pact --from` read their HAR. */
export interface ReadHarOptions {
  /** Characters of each body kept; a longer body is cut and marked `bodyTruncated`. */
  maxBodyChars?: number
  /** Reads the whole file as text instead of streaming it (tests give their own). */
  readFile?: ((path: string) => Promise<string>) | undefined
}

/**
 * Reads a HAR file chunk by chunk (1 MiB at a time) and hands each entry of
 * `log.entries` to `onEntry` as a journal entry, in the file's order: memory
 * is one chunk and one entry plus what `onEntry` keeps, whatever the file's
 * length. Rejects with the file system's error (ENOENT…) or the reader's
 * TypeError (not JSON, not a HAR, an entry that is not a HAR entry).
 *
 * @example
 * await readHarFile('requests.har', (entry) => collector.add(entry))
 */
export const readHarFile = async (
  path: string,
  onEntry: (entry: JournalEntry) => void,
  options: ReadHarOptions = {},
): Promise<void> => {
  const stream = createHarEntryStream(
    onEntry,
    options.maxBodyChars === undefined ? {} : { maxBodyChars: options.maxBodyChars },
  )
  if (options.readFile !== undefined) stream.write(await options.readFile(path))
  else
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
      stream.write(chunk as Buffer)
  stream.end()
}
