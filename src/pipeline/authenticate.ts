import type { ApiKeyInfo } from '../auth/key-registry.js'
import type { AuthorizationHeader } from '../auth/parse-authorization.js'
import { unauthorized } from '../http/errors.js'
import type { SandboxRequest } from '../http/types.js'
import { anonymousBucketName } from '../rate-limit/anonymous-bucket-name.js'
import { DEFAULT_SESSION, type SandboxState } from '../state/sandbox-state.js'

/** Who is calling: the key's record, or nobody (an anonymous caller), and the bucket it counts against. */
export interface Caller {
  auth: AuthorizationHeader
  key: ApiKeyInfo | undefined
  /** The rate-limit bucket: `key:<key>`, or `anon:<address>` for an unauthenticated caller. */
  bucket: string
  /**
   * Whom a session this caller opens belongs to (decision 0026): `key:<key>`
   * for a key of its own (option or run-time), `demo:<address>` for a public
   * demo key (per IPv4 address, per IPv6 /64); undefined without a valid key,
   * which opens no session, and for `default`, which is nobody's.
   */
  owner: string | undefined
}

/**
 * Stage 2: identifies the caller by the key as the session it asks for sees
 * it, without opening that session (a request that fails authentication never
 * creates, touches or evicts one: it is answered in `default`, decision 0026).
 * It never refuses: an unauthenticated caller still counts against its
 * address's anonymous bucket first (`admit`), and `requireKey` answers the 401
 * after that (decision 0004).
 *
 * @example
 * const caller = await identify({ state, session: 'w1', auth, request })
 */
export const identify = (input: {
  state: SandboxState
  /** The session the request asks for (`selectSession`). */
  session: string
  auth: AuthorizationHeader
  request: Pick<SandboxRequest, 'clientAddress'>
}): Caller | Promise<Caller> => {
  const { auth, request } = input
  const key = auth.kind === 'bearer' ? input.state.findKey(input.session, auth.token) : undefined
  // Synchronous when the state is (memory): no microtask on the hot path.
  if (key instanceof Promise)
    return key.then((found) => toCaller(auth, found, request, input.session))
  return toCaller(auth, key, request, input.session)
}

const toCaller = (
  auth: AuthorizationHeader,
  key: ApiKeyInfo | undefined,
  request: Pick<SandboxRequest, 'clientAddress'>,
  session: string,
): Caller => ({
  auth,
  key,
  bucket: key !== undefined ? `key:${key.key}` : `anon:${request.clientAddress ?? 'shared'}`,
  // Only a session that can be opened needs an owner (`default` is nobody's).
  owner:
    key === undefined || session === DEFAULT_SESSION
      ? undefined
      : key.source === 'demo'
        ? `demo:${anonymousBucketName(`anon:${request.clientAddress ?? 'shared'}`).slice(5)}`
        : `key:${key.key}`,
})

/**
 * The caller of an account key (contract §22): its bucket is the key's id
 * (quotas and bans per key, by its plan), and so is the owner of the
 * account's session.
 *
 * @example
 * const caller = accountCaller(auth, key)
 */
export const accountCaller = (auth: AuthorizationHeader, key: ApiKeyInfo): Caller => ({
  auth,
  key,
  bucket: `key:${key.key}`,
  owner: `key:${key.key}`,
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
