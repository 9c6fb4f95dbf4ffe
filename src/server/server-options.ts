import type { CorsOptions } from 'cors'
import type { OwnHandler } from '../handlers/check-own-handlers.js'
import { SANDBOX_OPTION_NAMES, type SandboxOptions } from '../sandbox/sandbox-options.js'
import type { RequestLogEntry } from './format-log-line.js'

/** Options of `createSandboxServer`: the sandbox's options plus the server's own. */
export interface SandboxServerOptions<S extends string = never> extends SandboxOptions<S> {
  /** Opens the control API to every caller that sends `Authorization: Bearer <adminToken>` (and only to them). */
  adminToken?: string
  /**
   * Accounts (contract §22, docs/accounts.md): `open` (anyone signs up at
   * `/portal`) or `invite` (a code from `POST /__sandbox/invites` needed).
   * Needs `adminToken`. Off by default.
   */
  accounts?: 'open' | 'invite' | undefined
  /**
   * Host names, besides localhost, `*.localhost`, 127.0.0.0/8 and [::1], whose `Host` header
   * the control API answers (`--allowed-host`). Guards against DNS rebinding (contract §14).
   */
  allowedHosts?: readonly string[]
  /** Keep the pets in this JSON file (created when absent). See docs/server.md, "The data file". */
  dataFile?: string
  /**
   * Your own handlers (MSW handlers, or functions `(request) => Response | undefined`):
   * for paths outside the API and the control API, and for paths under the
   * base path that the contract does not define (a path nobody answers is
   * still 404 `route_not_found`).
   */
  handlers?: readonly OwnHandler[]
  /** CORS options for the `cors` package, or false to send no CORS headers (default: contract §11). */
  cors?: CorsOptions | false
  /** Called once per finished request (the CLI's request log). */
  onRequest?: (entry: RequestLogEntry) => void
  /** Longest a response delay or a `timeout` fault holds a request (default 30,000 ms). */
  maxHoldMs?: number
  /**
   * Slow-client timeouts, in ms: all headers (default 10,000), the whole request (30,000), idle
   * keep-alive (5,000), and how often the first two are checked (500), which bounds how late a
   * cut can come.
   */
  timeouts?: {
    headersMs?: number
    requestMs?: number
    keepAliveMs?: number
    checkIntervalMs?: number
  }
  /** How long `close()` waits for in-flight requests before cutting them (default 10,000 ms). */
  shutdownGraceMs?: number
}

/** Every option `createSandboxServer` knows (the ones it names when it refuses another). */
export const SERVER_OPTION_NAMES = [
  ...SANDBOX_OPTION_NAMES,
  'adminToken',
  'accounts',
  'allowedHosts',
  'dataFile',
  'handlers',
  'cors',
  'onRequest',
  'maxHoldMs',
  'timeouts',
  'shutdownGraceMs',
] as const satisfies readonly (keyof SandboxServerOptions)[]
