/** The bounds on what reading a document may cost (decision 0058, SECURITY.md). */
export const DOCUMENT_LIMITS = {
  /** One file's size (GitHub's whole description is 13 MB). */
  fileBytes: 64 * 1024 * 1024,
  /** Every file of one document together. */
  totalBytes: 128 * 1024 * 1024,
  /** Files one document may read (itself and those its `$ref`s name). */
  files: 500,
  /** Nesting of the document as written, and of any schema once its `$ref`s are followed. */
  depth: 200,
  /** Characters, items or properties a schema may demand of one answer (`minLength`, nested `minItems`). */
  values: 100_000,
  /** YAML aliases (`*name`); an alias that expands a collection with aliases counts more (yaml's `maxAliasCount`). */
  yamlAliases: 1000,
} as const

/** What the loader uses of Node's `fs` (typed here: the core imports no `node:*`, decision 0009). */
interface FileStat {
  isFile(): boolean
  size: number
}
interface FileHandle {
  stat(): Promise<FileStat>
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>
  close(): Promise<void>
}
interface Fs {
  constants: { O_RDONLY: number; O_NONBLOCK: number }
  promises: {
    stat(path: string): Promise<FileStat>
    realpath(path: string): Promise<string>
    open(path: string, flags: number): Promise<FileHandle>
  }
}
interface Path {
  resolve(...paths: string[]): string
  dirname(path: string): string
  relative(from: string, to: string): string
  isAbsolute(path: string): boolean
}

/** Node's fs and path, without importing `node:*` below the runtimes (the core stays neutral). */
export const nodeModules = (): { fs: Fs; path: Path } | undefined => {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule
  if (typeof get !== 'function') return undefined
  const fs = get('node:fs') as Fs | undefined
  const path = get('node:path') as Path | undefined
  return fs === undefined || path === undefined ? undefined : { fs, path }
}

/**
 * Reads one file of a document: a regular file only (never a FIFO, a device
 * or /proc's endless files), at most `DOCUMENT_LIMITS.fileBytes`, opened
 * without blocking. Returns its text, or a reason to refuse.
 */
export const readDocumentFile = async (
  file: string,
): Promise<{ text: string; bytes: number } | { refused: string }> => {
  const node = nodeModules()
  if (node === undefined) return { refused: 'reading a file needs Node; pass the document itself' }
  const { fs } = node
  let stat: FileStat
  try {
    stat = await fs.promises.stat(file)
  } catch (error) {
    const code = (error as { code?: string }).code
    return { refused: code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? 'error'})` }
  }
  if (!stat.isFile()) return { refused: 'it is not a regular file' }
  if (stat.size > DOCUMENT_LIMITS.fileBytes)
    return {
      refused: `it has ${stat.size} bytes, over the limit of ${DOCUMENT_LIMITS.fileBytes}`,
    }
  // O_NONBLOCK: a file swapped for a FIFO after the check still cannot hang the start.
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
  try {
    const opened = await handle.stat()
    if (!opened.isFile()) return { refused: 'it is not a regular file' }
    const buffer = new Uint8Array(Math.min(opened.size, DOCUMENT_LIMITS.fileBytes) + 1)
    let length = 0
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
    }
    if (length > DOCUMENT_LIMITS.fileBytes)
      return { refused: `it has over ${DOCUMENT_LIMITS.fileBytes} bytes, the limit` }
    return { text: new TextDecoder().decode(buffer.subarray(0, length)), bytes: length }
  } finally {
    await handle.close()
  }
}
