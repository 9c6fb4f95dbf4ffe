/**
 * What the server benchmarks share: autocannon as the load client (it drives
 * 50 connections from one process faster than the servers answer, which a
 * Node `http.Agent` client did not: issue 20), servers in processes of their
 * own, and the recorded answers a bare node:http server replays.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

export interface LoadResult {
  /** Requests per second (autocannon's average over the run). */
  rps: number
  p50: number
  p99: number
  /** Answers outside 2xx (expected for the 429 case) and transport errors. */
  non2xx: number
  errors: number
  /** CPU the server process used per request, in µs (user + system, from /proc). */
  cpuUs: number
  /** Requests answered in the run. */
  requests: number
}

export interface LoadOptions {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string | undefined
  seconds: number
  connections?: number
  /** The server's process, for its CPU time. */
  pid?: number | undefined
}

/** CPU time of a process so far, in ms (Linux /proc; NaN elsewhere). */
const cpuMs = (pid: number | undefined): number => {
  if (pid === undefined) return Number.NaN
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

/** Loads one URL with autocannon for `seconds`. */
export const loadWith = async (options: LoadOptions): Promise<LoadResult> => {
  const before = cpuMs(options.pid)
  const result = await autocannon({
    url: options.url,
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers ?? {},
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.seconds,
  })
  const used = cpuMs(options.pid) - before
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuUs: (used * 1000) / Math.max(1, result.requests.total),
    requests: result.requests.total,
  }
}

export interface Spawned {
  origin: string
  child: ChildProcess
  /** ms from spawn to the "serving" line. */
  readyMs: number
  stop(): Promise<void>
}

/** Starts `node ...args` and resolves once it prints `serving http://…`. */
export const spawnServer = (args: string[], cwd: string): Promise<Spawned> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString()
    })
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString()
      const origin = /serving (http:\/\/[^\s/]+)/.exec(out)?.[1]
      if (origin === undefined) return
      child.stdout?.removeAllListeners('data')
      child.stdout?.resume()
      resolve({
        origin,
        child,
        readyMs: performance.now() - started,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
          }),
      })
    })
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited ${code} before serving: ${err.slice(0, 500)}`)),
    )
  })

export interface RecordedAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** One answer of the sandbox as bytes a bare server can replay (per-connection headers left out). */
export const recordAnswer = async (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | undefined },
): Promise<RecordedAnswer> => {
  const response = await fetch(url, { ...init, body: init.body ?? null })
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'connection' && name !== 'keep-alive') headers[name] = value
  })
  return { status: response.status, headers, body: await response.text() }
}

/** The median of a few numbers. */
export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
