import type { ApiKeyInfo } from '../../auth/key-registry.js'

const GENERATED_PREFIX = 'sk_sandbox_'

/**
 * A run-time key as lists show it: a generated `sk_sandbox_…` key keeps its
 * prefix and four characters, any other at most four characters and never
 * more than half. Enough to tell keys apart, not to use one.
 *
 * @example
 * maskKey('sk_sandbox_1a2b3c4d…') // 'sk_sandbox_1a2b…'
 */
export const maskKey = (key: string): string =>
  key.startsWith(GENERATED_PREFIX) && key.length > GENERATED_PREFIX.length + 8
    ? `${key.slice(0, GENERATED_PREFIX.length + 4)}…`
    : `${key.slice(0, Math.min(4, Math.floor(key.length / 2)))}…`

/**
 * A key as `GET /__sandbox/keys` and the dashboard show it: demo keys and
 * keys from the options in full (they are in the docs or the caller's own
 * config), keys created at run time masked with `masked: true`, because
 * `POST /__sandbox/keys` already returned them once in full.
 */
export const showKey = (info: ApiKeyInfo): ApiKeyInfo & { masked?: true } =>
  info.source === 'runtime' ? { ...info, key: maskKey(info.key), masked: true } : info
