import type { ApiKeyInfo } from '../auth/key-registry.js'
import type { AuthorizationHeader } from '../auth/parse-authorization.js'
import { unauthorized } from '../http/errors.js'
import type { SandboxRequest } from '../http/types.js'
import { anonymousBucketName } from '../rate-limit/anonymous-bucket-name.js'
import type { SandboxState } from '../state/sandbox-state.js'

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
   * which opens no session.
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
export const identify = async (input: {
  state: SandboxState
  /** The session the request asks for (`selectSession`). */
  session: string
  auth: AuthorizationHeader
  request: Pick<SandboxRequest, 'clientAddress'>
}): Promise<Caller> => {
  const { auth, request } = input
  const key =
    auth.kind === 'bearer' ? await input.state.findKey(input.session, auth.token) : undefined
  const anonymous = `anon:${request.clientAddress ?? 'shared'}`
  return {
    auth,
    key,
    bucket: key !== undefined ? `key:${key.key}` : anonymous,
    owner:
      key === undefined
        ? undefined
        : key.source === 'demo'
          ? `demo:${anonymousBucketName(anonymous).slice('anon:'.length)}`
          : `key:${key.key}`,
  }
}

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
