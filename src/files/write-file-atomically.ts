import { open, realpath, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

let tempCounter = 0

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Where to write and with which mode: through a symlink to its target (the
 * rename would replace the link with a regular file), keeping the file's mode
 * (a 0600 file stays 0600).
 */
const resolveTarget = async (path: string): Promise<{ path: string; mode: number | undefined }> => {
  const real = await realpath(path).catch((error: unknown) => {
    if (isMissing(error)) return path
    throw error
  })
  const mode = await stat(real).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  )
  return { path: real, mode }
}

/**
 * Replaces a file's content in one step: a temp file in the same directory →
 * write → fsync → rename → fsync the directory. A reader sees the old file or
 * the new one, never half of it; a crash leaves `.<name>.<pid>.<n>.tmp` behind
 * (the data file removes those on start). An existing file keeps its mode; a
 * new one gets `newFileMode` (less the umask): 0600 for files that hold
 * secrets' hashes, as the data file does.
 *
 * @example
 * await writeFileAtomically('./pets.json', text)
 */
export const writeFileAtomically = async (
  target: string,
  text: string,
  newFileMode = 0o644,
): Promise<void> => {
  const { path, mode } = await resolveTarget(target)
  const dir = dirname(path)
  const temp = join(dir, `.${basename(path)}.${process.pid}.${++tempCounter}.tmp`)
  const file = await open(temp, 'w', newFileMode)
  try {
    // chmod, not open's mode: the umask must not widen or narrow what the user chose.
    if (mode !== undefined) await file.chmod(mode)
    await file.writeFile(text, 'utf8')
    await file.sync()
  } catch (error) {
    await file.close()
    await unlink(temp).catch(() => {})
    throw error
  }
  await file.close()
  await rename(temp, path)
  // The rename is durable once the directory is; not every platform lets a directory be synced.
  const directory = await open(dir, 'r').catch(() => undefined)
  if (directory !== undefined) {
    await directory.sync().catch(() => {})
    await directory.close()
  }
}
