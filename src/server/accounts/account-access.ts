import type { IncomingMessage } from 'node:http'
import { parseAuthorization } from '../../auth/parse-authorization.js'
import { ApiError } from '../../http/api-error.js'
import type { AccountRecord } from '../../state/account-store.js'
import { readAuthorization } from '../read-authorization.js'
import { ACCOUNT_KEY_PREFIX, type AccountService, type PortalLogin } from './account-service.js'

/** The portal's log-in cookie. */
export const PORTAL_COOKIE = 'petstore_portal'

/** A cookie's value from the `Cookie` header (the last of that name), or undefined. */
export const readCookie = (req: IncomingMessage, name: string): string | undefined => {
  const header = req.headers.cookie
  if (header === undefined) return undefined
  let found: string | undefined
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at !== -1 && part.slice(0, at).trim() === name) found = part.slice(at + 1).trim()
  }
  return found
}

/** Methods that change something: with the cookie they need the CSRF token. */
export const isWrite = (method: string | undefined): boolean =>
  method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'

/** Who an account's request is: the account, and the log-in when it came with the cookie. */
export interface AccountCaller {
  accountId: string
  account?: AccountRecord | undefined
  login?: PortalLogin | undefined
}

/**
 * The account a request acts as (contract §22): a live key of the account as
 * `Authorization: Bearer`, or the portal cookie (a write then needs
 * `X-CSRF-Token` equal to the log-in's: 403 `csrf_failed`). An account
 * key that is not live is 403 `forbidden`. Undefined when the request
 * carries neither (a bearer token that is not an account key is the admin's
 * business).
 *
 * @example
 * const caller = await accountOf(accounts, req)
 */
export const accountOf = async (
  accounts: AccountService,
  req: IncomingMessage,
  options: { cookie: boolean } = { cookie: true },
): Promise<AccountCaller | undefined> => {
  const auth = parseAuthorization(readAuthorization(req))
  if (auth.kind === 'bearer' && auth.token.startsWith(ACCOUNT_KEY_PREFIX)) {
    const key = await accounts.findKey(auth.token)
    if (key?.session !== undefined) return { accountId: key.session }
    throw new ApiError(
      'forbidden',
      'This account key is unknown, revoked or past its roll: make or roll a key in the portal.',
    )
  }
  if (!options.cookie || auth.kind !== 'missing') return undefined
  const found = await accounts.loggedIn(readCookie(req, PORTAL_COOKIE))
  if (found === undefined) return undefined
  if (isWrite(req.method) && !accounts.csrfMatches(found.login, headerText(req, 'x-csrf-token')))
    throw new ApiError(
      'csrf_failed',
      'A change made with the portal cookie needs the header X-CSRF-Token equal to the csrfToken of GET /portal/api/me.',
    )
  return { accountId: found.account.id, account: found.account, login: found.login }
}

const headerText = (req: IncomingMessage, name: string): string | undefined => {
  const value = Object.hasOwn(req.headers, name) ? req.headers[name] : undefined
  return typeof value === 'string' ? value : undefined
}
