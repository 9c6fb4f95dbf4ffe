import type { ApiKeyInfo } from '../../auth/key-registry.js'

/**
 * How the dashboard shows a key: demo and option keys in full (they are in
 * the README and the user's own config), generated keys masked to a prefix
 * that tells them apart, so a screenshot or a screen share leaks none.
 *
 * @example
 * maskKey({ key: 'sk_sandbox_0123456789abcdef', source: 'runtime' }) // 'sk_sandbox_0123…'
 */
export const maskKey = (info: Pick<ApiKeyInfo, 'key' | 'source'>): string => {
  if (info.source !== 'runtime') return info.key
  const keep = info.key.startsWith('sk_sandbox_')
    ? 'sk_sandbox_'.length + 4
    : Math.min(4, Math.floor(info.key.length / 2))
  return `${info.key.slice(0, keep)}…`
}
