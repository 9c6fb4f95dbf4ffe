/**
 * Whether a process with this id runs on this machine: the owner of a
 * temporary file or a lock file, left behind if it crashed.
 *
 * @example
 * if (!isProcessRunning(Number(pidText))) unlinkSync(lock)
 */
export const isProcessRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but is not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
