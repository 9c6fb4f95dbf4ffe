import type { ApiKeyInfo } from '../../auth/key-registry.js'
import { maskKey } from '../dashboard/mask-key.js'

/**
 * A key as `GET /__sandbox/keys` lists it: demo keys and keys from the
 * options in full (they are in the docs or the caller's own config), keys
 * created at run time masked as the dashboard shows them, with `masked: true`,
 * because `POST /__sandbox/keys` already returned them once in full. An
 * account holder (`byAccount`, contract §22) is not the operator: the keys of
 * the options are the operator's secrets, masked for it too.
 *
 * @example
 * showKey(info) // { key: 'sk_sandbox_1a2b…', plan: 'free', source: 'runtime', masked: true, … }
 */
export const showKey = <K extends ApiKeyInfo>(
  info: K,
  byAccount = false,
): K | (K & { masked: true }) =>
  info.source === 'runtime' || (byAccount && info.source === 'options')
    ? { ...info, key: maskKey({ key: info.key, source: 'runtime' }), masked: true }
    : info
