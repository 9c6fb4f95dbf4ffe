/**
 * petstore-sandbox/server: the standalone node:http server, the express
 * middleware and the data file. Node only (the exports map gives browsers null).
 */

export * from '../core-api.js'
export {
  type PactSource,
  type WritePactOptions,
  writePact,
} from '../files/write-pact-file.js'
export type {
  SkippedCheck,
  VerifyCheck,
  VerifyReport,
  VerifyStop,
} from '../verify/verify-types.js'
export { CONTROL_PREFIX } from './control/handle-control-request.js'
export { DEFAULT_CORS_OPTIONS } from './create-cors-handler.js'
export { createSandboxServer, type SandboxServer } from './create-sandbox-server.js'
export { DataFileError, readDataFile } from './data-file/read-data-file.js'
export { defineConfig, type SandboxConfig } from './define-config.js'
export { formatLogLine, type RequestLogEntry } from './format-log-line.js'
export {
  type SandboxMiddleware,
  type SandboxMiddlewareOptions,
  sandboxMiddleware,
} from './sandbox-middleware.js'
export type { SandboxServerOptions } from './server-options.js'
export { type VerifyOptions, verify } from './verify/verify.js'
