import type { ApiKeyInfo } from '../auth/key-registry.js'
import type { AuthorizationHeader } from '../auth/parse-authorization.js'
import { unauthorized } from '../http/errors.js'
import type { SandboxRequest } from '../http/types.js'
import type { SessionState } from '../state/sandbox-state.js'

/** Who is calling: the key's record, or nobody (an anonymous caller), and the bucket it counts against. */
export interface Caller {
  auth: AuthorizationHeader
  key: ApiKeyInfo | undefined
  /** The rate-limit bucket: `key:<key>`, or `anon:<address>` for an unauthenticated caller. */
  bucket: string
}

/**
 * Stage 2: identifies the caller in its session. It never refuses: an
 * unauthenticated caller still counts against its address's anonymous bucket
 * first (`admit`), and `requireKey` answers the 401 after that (decision 0004).
 *
 * @example
 * const caller = await identify(session, parseAuthorization(request.headers.authorization), request)
 */
export const identify = (
  session: SessionState,
  auth: AuthorizationHeader,
  request: Pick<SandboxRequest, 'clientAddress'>,
): Caller | Promise<Caller> => {
  const key = auth.kind === 'bearer' ? session.lookupKey(auth.token) : undefined
  // Synchronous when the session is (memory): no microtask on the hot path.
  if (key instanceof Promise) return key.then((found) => toCaller(auth, found, request))
  return toCaller(auth, key, request)
}

const toCaller = (
  auth: AuthorizationHeader,
  key: ApiKeyInfo | undefined,
  request: Pick<SandboxRequest, 'clientAddress'>,
): Caller => ({
  auth,
  key,
  bucket: key !== undefined ? `key:${key.key}` : `anon:${request.clientAddress ?? 'shared'}`,
})

/**
 * Stage 4: the 401 for a caller without a valid key, with its challenge.
 *
 * @example
 * const key = requireKey(caller)
 */
export const requireKey = (caller: Caller): ApiKeyInfo => {
  if (caller.key !== undefined) return caller.key
  const { auth } = caller
  throw unauthorized(
    auth.kind === 'missing'
      ? 'missing_api_key'
      : auth.kind === 'malformed'
        ? 'malformed_authorization'
        : 'invalid_api_key',
    { tokenSent: auth.kind === 'bearer' || (auth.kind === 'malformed' && auth.tokenSent) },
  )
}
