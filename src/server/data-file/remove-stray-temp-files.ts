import { readdir, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { isProcessRunning } from '../../files/is-process-running.js'

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Removes the temporary files an earlier server writing `path` left behind
 * when it was killed mid-write: `.<name>.<pid>.<n>.tmp` beside it, whose pid
 * is no running process. Nothing else is touched. Resolves with the names removed.
 *
 * @example
 * await removeStrayTempFiles('./pets.json')
 */
export const removeStrayTempFiles = async (path: string): Promise<string[]> => {
  const dir = dirname(path)
  const pattern = new RegExp(`^\\.${escapeRegExp(basename(path))}\\.([0-9]+)\\.[0-9]+\\.tmp$`)
  const names = await readdir(dir).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN)
    if (!Number.isSafeInteger(pid) || pid === process.pid || isProcessRunning(pid)) continue
    await unlink(join(dir, name)).then(
      () => removed.push(name),
      () => {},
    )
  }
  return removed
}
