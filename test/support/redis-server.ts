import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A redis-server this test started: on a free loopback port, in a temporary directory. */
export interface TestRedis {
  /** `redis://127.0.0.1:PORT/0` */
  readonly url: string
  readonly port: number
  readonly dir: string
  /** Stops the server (SIGTERM: with persistence on, it writes its AOF first; SIGKILL: a crash). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>
  /** Starts it again on the same port and directory (after `stop`). */
  start(): Promise<void>
  /** Pauses the process (SIGSTOP): it holds its connections and answers nothing. */
  pause(): void
  /** Resumes it after `pause` (SIGCONT). */
  resume(): void
  /** Stops it and removes its directory. */
  dispose(): Promise<void>
}

/** A port no one listens on now (the OS's choice). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * Starts a real `redis-server` (never a mock) for a test file, bounded in time:
 * it is told to listen on 127.0.0.1 only, keeps nothing unless `persistence`
 * is asked for (then AOF with `appendfsync always`, so a restart keeps every
 * acknowledged write), and is stopped by `dispose()`.
 *
 * @example
 * const redis = await startTestRedis()
 * afterAll(() => redis.dispose())
 */
export const startTestRedis = async (
  options: {
    persistence?: boolean
    /** More `redis-server` arguments (a cluster node's, say). */
    args?: readonly string[]
  } = {},
): Promise<TestRedis> => {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-redis-'))
  // A free port can be taken by another process before redis-server binds it: another is tried.
  let port = await freePort()
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--daemonize',
    'no',
    '--logfile',
    '',
    ...(options.persistence === true
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no']),
    ...(options.args ?? []),
  ]
  let child: ChildProcess | undefined
  const start = async (): Promise<void> => {
    const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    child = proc
    await new Promise<void>((resolve, reject) => {
      let output = ''
      const timer = setTimeout(() => {
        proc.kill('SIGKILL')
        reject(new Error(`redis-server did not start within 10 s:\n${output}`))
      }, 10_000)
      const onData = (chunk: Buffer): void => {
        output += chunk.toString()
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer)
          proc.stdout?.off('data', onData)
          proc.stdout?.resume()
          resolve()
        }
      }
      proc.stdout?.on('data', onData)
      proc.stderr?.resume()
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited with ${String(code)}:\n${output}`))
      })
    })
  }
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    const proc = child
    child = undefined
    if (proc === undefined || proc.exitCode !== null) return
    // A paused process would not act on SIGTERM.
    proc.kill('SIGCONT')
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
    proc.kill(signal)
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await start()
      break
    } catch (error) {
      if (attempt === 5 || !String(error).includes('Address already in use')) throw error
      port = await freePort()
      args[1] = String(port)
    }
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    stop,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async dispose() {
      await stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
