import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const SCRIPT = fileURLToPath(new URL('./stand-in-server.mjs', import.meta.url))

/** The key the stand-in accepts. */
export const STAND_IN_KEY = 'stand-in-key'

/** The stand-in's answers where the spec is silent: every gap of contract §16 unlike the sandbox's default. */
export const STAND_IN_CHOICES = {
  limitOutOfRange: 'clamp',
  unknownStatusFilter: 'ignore',
  defaultStatus: 'pending',
  nameMaxLength: 50,
  unknownFields: 'reject',
  pagination: 'offset',
  totalCountHeader: 'X-Total',
  errorCodes: {
    missing_api_key: 'unauthorized',
    malformed_authorization: 'unauthorized',
    invalid_api_key: 'unauthorized',
    invalid_parameter: 'bad_request',
    validation_failed: 'bad_request',
    malformed_json: 'bad_request',
    invalid_content_type: 'bad_request',
    pet_not_found: 'not_found',
    route_not_found: 'not_found',
    payload_too_large: 'too_large',
  },
  maxBodyBytes: 16_384,
} as const

/**
 * Starts the stand-in Pet Store (test/verify/support/stand-in-server.mjs) as a
 * process of its own, with the spec rules named in `broken` broken.
 *
 * @example
 * const standIn = await startStandIn()
 * await verify({ target: standIn.url, key: STAND_IN_KEY })
 * await standIn.stop()
 */
export const startStandIn = async (
  options: { broken?: readonly string[] } = {},
): Promise<{ url: string; stop: () => Promise<void> }> => {
  const child = spawn(
    process.execPath,
    [SCRIPT, JSON.stringify({ key: STAND_IN_KEY, ...options })],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening (\S+)/.exec(out)
      if (match?.[1] !== undefined) resolve(match[1])
    })
    child.once('exit', (code) =>
      reject(new Error(`The stand-in exited (${code}) before listening.`)),
    )
  })
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}
