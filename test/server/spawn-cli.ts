import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface CliRun {
  child: ChildProcess
  /** Everything written so far. */
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>
}

/** Every child started here, so afterAll can kill what a failed test left running. */
const children = new Set<ChildProcess>()

/** How to start the CLI: its TypeScript source, or the bundle `npm run build` makes (what `bin` and `npm start` run). */
const ENTRIES = {
  source: ['--import', 'tsx', 'src/cli/bin.ts'],
  bundle: ['dist/cli/petstore-sandbox.js'],
} as const

/**
 * Runs the CLI, by default from its TypeScript source (`node --import tsx src/cli/bin.ts`).
 *
 * @example
 * const run = spawnCli(['--port', '0'])
 * const url = await serverUrl(run)
 */
export const spawnCli = (
  args: readonly string[],
  env: Record<string, string> = {},
  entry: keyof typeof ENTRIES = 'source',
): CliRun => spawnNode([...ENTRIES[entry], ...args], { env })

/**
 * Runs `node` with these arguments in a folder (default: the repository), as
 * spawnCli does: the CLI of a packed install, say.
 *
 * @example
 * const run = spawnNode(['node_modules/petstore-sandbox/dist/cli/petstore-sandbox.js', 'init'], { cwd: project })
 */
export const spawnNode = (
  args: readonly string[],
  { env = {}, cwd = ROOT }: { env?: Record<string, string>; cwd?: string } = {},
): CliRun => {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString()
  })
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child)
      resolve(code ?? signal ?? 'unknown')
    })
  })
  return { child, stdout: () => out, stderr: () => err, exited }
}

/** Waits for the start banner and returns the server's origin (`http://127.0.0.1:PORT`). */
export const serverOrigin = (run: CliRun): Promise<string> =>
  new Promise((resolve, reject) => {
    const check = (): void => {
      const match = /serving (http:\/\/[^\s/]+)/.exec(run.stdout())
      if (match?.[1] !== undefined) {
        run.child.stdout?.off('data', check)
        resolve(match[1])
      }
    }
    run.child.stdout?.on('data', check)
    run.exited.then((code) =>
      reject(new Error(`The CLI exited (${code}) before serving: ${run.stderr()}`)),
    )
    check()
  })

/** Kills every child still running (call in afterAll). */
export const killAllChildren = (): void => {
  for (const child of children) child.kill('SIGKILL')
}
