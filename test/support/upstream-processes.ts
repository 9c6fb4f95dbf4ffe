import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { type CliRun, serverOrigin, spawnCli } from '../server/spawn-cli.js'

/** An upstream deployment in a process of its own (issue 19's proof: never a mock in this process). */
export interface UpstreamProcess {
  /** Its base URL, e.g. `http://127.0.0.1:40123/v1`. */
  url: string
  origin: string
  /** Kills the process and waits until it is gone (its port then refuses connections). */
  stop(): Promise<void>
}

const BROKEN = fileURLToPath(new URL('./broken-upstream.mjs', import.meta.url))
const HOSTILE = fileURLToPath(new URL('./hostile-upstream.mjs', import.meta.url))

const stopper = (run: Pick<CliRun, 'child' | 'exited'>) => async (): Promise<void> => {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
  await run.exited
}

/**
 * Another sandbox, started by its CLI on a free port, with its own seed (so its
 * pets are recognisable) and its own journal to read what reached it.
 *
 * @example
 * const upstream = await startSandboxUpstream(['--seed', '7'])
 */
export const startSandboxUpstream = async (args: readonly string[]): Promise<UpstreamProcess> => {
  const run = spawnCli(['--port', '0', '--quiet', ...args])
  const origin = await serverOrigin(run)
  return { url: `${origin}/v1`, origin, stop: stopper(run) }
}

/**
 * The deliberately broken deployment of test/support/broken-upstream.mjs
 * (wrong Error shape, missing rate-limit headers, 200 for an invalid limit),
 * or with `hang` one that never answers.
 *
 * @example
 * const broken = await startBrokenUpstream()
 */
export const startBrokenUpstream = async (
  options: { hang?: boolean } = {},
): Promise<UpstreamProcess> => startScript(BROKEN, options.hang === true ? ['--hang'] : [])

/**
 * The hostile deployment of test/support/hostile-upstream.mjs (issue 31): gzip
 * bombs, endless and dripping bodies, lying lengths, echoed keys, invalid
 * statuses and headers, each at `/v1/hostile/<case>`.
 *
 * @example
 * const hostile = await startHostileUpstream()
 */
export const startHostileUpstream = (): Promise<UpstreamProcess> => startScript(HOSTILE, [])

const startScript = async (script: string, args: string[]): Promise<UpstreamProcess> => {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  )
  const origin = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /serving (http:\/\/[^\s/]+)/.exec(out)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    void exited.then((code) => reject(new Error(`The upstream ${script} exited (${code}).`)))
  })
  return { url: `${origin}/v1`, origin, stop: stopper({ child, exited }) }
}

/** What the broken upstream received, oldest first. */
export const brokenJournal = async (
  upstream: UpstreamProcess,
): Promise<{ method: string; url: string; headers: Record<string, string>; body: string }[]> =>
  (await fetch(`${upstream.origin}/__requests`)).json() as never

/** An entry of an upstream sandbox's journal, as far as the tests read it. */
export interface UpstreamEntry {
  url: string
  keyRef: string | null
  request: { headers: Record<string, string> }
  response: { headers: Record<string, string>; body: string }
}

/** What an upstream sandbox journaled in a session, oldest first. */
export const sandboxJournal = async (
  upstream: UpstreamProcess,
  session = 'default',
): Promise<UpstreamEntry[]> =>
  (await fetch(`${upstream.origin}/__sandbox/requests?__session=${session}`)).json() as never
