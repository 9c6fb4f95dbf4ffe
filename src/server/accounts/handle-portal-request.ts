import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import * as z from 'zod/mini'
import { LIMITS } from '../../contract/limits.js'
import { madeWhenRead } from '../../contract/made-when-read.js'
import { ApiError } from '../../http/api-error.js'
import { methodNotAllowed, routeNotFound } from '../../http/errors.js'
import { jsonResponse } from '../../http/json-response.js'
import { type BodySchema, readJson } from '../../http/read-json.js'
import { createRouter } from '../../http/router.js'
import type { SandboxResponse } from '../../http/types.js'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { readRequestBody } from '../read-request-body.js'
import { writeNow } from '../write-sandbox-response.js'
import { type AccountCaller, accountOf, PORTAL_COOKIE, readCookie } from './account-access.js'
import {
  ACCOUNT_LIMITS,
  type AccountService,
  type Login,
  PORTAL_CHALLENGE,
} from './account-service.js'

/** Where the portal lives (contract §22). */
export const PORTAL_PREFIX = '/portal'
const API = '/api'

/** What the portal's routes need. */
export interface PortalContext {
  accounts: AccountService
  sandbox: SandboxCore<string>
  /** The portal page, when built (GET /portal and its files). */
  page: PortalPage | undefined
}

/** The built portal page: its HTML and hashed files. */
export interface PortalPage {
  answer(path: string): SandboxResponse | undefined
}

interface PortalRequest {
  req: IncomingMessage
  params: Record<string, string>
  body<T>(schema: BodySchema<T>, subject: string, fields: readonly string[]): Promise<T>
  /** The signed-in account (cookie, CSRF checked on writes); 401 `login_required` otherwise. */
  caller(): Promise<Required<Pick<AccountCaller, 'accountId'>> & AccountCaller>
}

type PortalHandler = (ctx: PortalContext, request: PortalRequest) => Promise<SandboxResponse>

const codePoints = (text: string): number => [...text].length
/** An address as a provider would accept one: something@host.tld, no spaces, at most 254 characters. */
const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]+$/

const BODIES = madeWhenRead({
  signup: () =>
    z.strictObject({
      email: z.string({ error: 'must be a string' }).check(
        z.refine((v) => v.length <= 254 && EMAIL.test(v), {
          error: 'must be an email address (name@example.com, at most 254 characters)',
        }),
      ),
      password: z.string({ error: 'must be a string' }).check(
        z.refine(
          (v) =>
            codePoints(v) >= ACCOUNT_LIMITS.minPassword &&
            codePoints(v) <= ACCOUNT_LIMITS.maxPassword,
          {
            error: `must have ${ACCOUNT_LIMITS.minPassword} to ${ACCOUNT_LIMITS.maxPassword} characters`,
          },
        ),
      ),
      invite: z.optional(
        z
          .string({ error: 'must be a string' })
          .check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(200)),
      ),
    }),
  login: () =>
    z.strictObject({
      email: z.string({ error: 'must be a string' }).check(z.maxLength(254)),
      password: z.string({ error: 'must be a string' }).check(z.maxLength(1024)),
    }),
  key: () =>
    z.strictObject({
      name: z.string({ error: 'must be a string' }).check(
        z.refine(
          (v) =>
            v.trim().length > 0 &&
            codePoints(v) <= ACCOUNT_LIMITS.maxKeyName &&
            // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
            !/[\u0000-\u001f\u007f]/.test(v),
          {
            error: `must be 1 to ${ACCOUNT_LIMITS.maxKeyName} characters, no control characters`,
          },
        ),
      ),
      plan: z.enum(['free', 'pro', 'business'], {
        error: 'must be free, pro or business (enterprise keys come from the admin)',
      }),
    }),
  roll: () =>
    z.strictObject({
      expiresInS: z.optional(
        z.number({ error: 'must be a number of seconds' }).check(
          z.int({ error: 'must be a whole number of seconds' }),
          z.gte(0, { error: 'must be 0 or more' }),
          z.lte(ACCOUNT_LIMITS.maxRollGraceS, {
            error: `must be at most ${ACCOUNT_LIMITS.maxRollGraceS} (a day)`,
          }),
        ),
      ),
    }),
})

const noContent = (headers: Record<string, string> = {}): SandboxResponse => ({
  status: 204,
  headers,
  body: null,
})

/** The cookie of a log-in: HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS. */
const cookie = (req: IncomingMessage, value: string, maxAgeS: number): string => {
  const https =
    (req.socket as Partial<TLSSocket>).encrypted === true ||
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim()
      .toLowerCase() === 'https'
  return `${PORTAL_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeS}${https ? '; Secure' : ''}`
}

const signedIn = (req: IncomingMessage, login: Login, now: number): Record<string, string> => ({
  'Set-Cookie': cookie(req, login.token, Math.max(0, Math.floor((login.expiresAt - now) / 1000))),
})

const keyIdParam = (params: Record<string, string>): string => {
  const id = params.id ?? ''
  if (!/^key_[0-9a-f]{16}$/.test(id)) throw new ApiError('key_not_found', `No key "${id}".`)
  return id
}

const PORTAL_ROUTER = createRouter<PortalHandler>()
  .add('POST', '/signup', async (ctx, { req, body }) => {
    const input = await body(BODIES.signup, 'The sign-up', ['email', 'password', 'invite'])
    const login = await ctx.accounts.signup(input, req.socket.remoteAddress)
    return jsonResponse(
      201,
      { id: login.account.id, email: login.account.email },
      signedIn(req, login, ctx.accounts.now()),
    )
  })
  .add('POST', '/login', async (ctx, { req, body }) => {
    const input = await body(BODIES.login, 'The sign-in', ['email', 'password'])
    const login = await ctx.accounts.login(input, req.socket.remoteAddress)
    return noContent(signedIn(req, login, ctx.accounts.now()))
  })
  .add('POST', '/logout', async (ctx, { req, caller }) => {
    await caller()
    const token = readCookie(req, PORTAL_COOKIE)
    if (token !== undefined) await ctx.accounts.logout(token)
    return noContent({ 'Set-Cookie': cookie(req, '', 0) })
  })
  .add('GET', '/me', async (ctx, { caller }) => {
    const { account, login } = await caller()
    if (account === undefined || login === undefined) throw loginRequired()
    return jsonResponse(200, ctx.accounts.me(account, login))
  })
  .add('GET', '/keys', async (ctx, { caller }) =>
    jsonResponse(200, await ctx.accounts.listKeys((await caller()).accountId)),
  )
  .add('POST', '/keys', async (ctx, { caller, body }) => {
    const { accountId } = await caller()
    const input = await body(BODIES.key, 'The key', ['name', 'plan'])
    return jsonResponse(201, await ctx.accounts.createKey(accountId, input))
  })
  .add('POST', '/keys/{id}/roll', async (ctx, { caller, body, params, req }) => {
    const { accountId } = await caller()
    // The body is optional: none (or an empty one) rolls at once.
    const length = req.headers['content-length']
    const hasBody =
      length === undefined ? req.headers['transfer-encoding'] !== undefined : length !== '0'
    const { expiresInS } = hasBody
      ? await body(BODIES.roll, 'The roll', ['expiresInS'])
      : { expiresInS: undefined }
    return jsonResponse(
      201,
      await ctx.accounts.rollKey(accountId, keyIdParam(params), expiresInS ?? 0),
    )
  })
  .add('DELETE', '/keys/{id}', async (ctx, { caller, params }) => {
    await ctx.accounts.revokeKey((await caller()).accountId, keyIdParam(params))
    return noContent()
  })
  // Each live key's quota windows in the account's sandbox (the portal's gauges).
  .add('GET', '/quotas', async (ctx, { caller }) => {
    const { accountId } = await caller()
    const keys = await ctx.accounts.listKeys(accountId)
    const session = await ctx.sandbox.state.session(accountId, `account:${accountId}`)
    const now = await session.now()
    const buckets = await session.quotas(now)
    return jsonResponse(
      200,
      keys.map((key) => {
        const bucket = buckets.find((b) => b.bucket === `key:${key.id}`)
        return {
          id: key.id,
          name: key.name,
          plan: key.plan,
          limits: key.limits,
          bucket: bucket ?? null,
        }
      }),
    )
  })

const loginRequired = (): ApiError =>
  new ApiError('login_required', 'Sign in first: POST /portal/api/login (or sign up).', {
    headers: { ...PORTAL_CHALLENGE },
  })

/** A cross-site request (an `Origin` that is not this server's) is refused: 403 `forbidden`. */
const checkOrigin = (req: IncomingMessage): void => {
  const origin = req.headers.origin
  if (origin === undefined) return
  let host: string | undefined
  try {
    host = new URL(origin).host
  } catch {
    host = undefined
  }
  if (host === undefined || host !== req.headers.host)
    throw new ApiError(
      'forbidden',
      'The portal answers its own pages only, not cross-site requests.',
    )
}

const answer = async (ctx: PortalContext, req: IncomingMessage, path: string) => {
  const method = req.method ?? 'GET'
  if (path !== API && !path.startsWith(`${API}/`)) {
    const page = ctx.page?.answer(path)
    if (page === undefined) {
      if (path === '' || path === '/')
        throw new ApiError(
          'route_not_found',
          'The portal page is not built: run "npm run build" (the published package ships it built).',
        )
      throw routeNotFound(`${PORTAL_PREFIX}${path}`)
    }
    if (method !== 'GET' && method !== 'HEAD')
      throw methodNotAllowed(method, `${PORTAL_PREFIX}${path}`, ['GET', 'HEAD'])
    return page
  }
  checkOrigin(req)
  const below = path.slice(API.length) || '/'
  const match = PORTAL_ROUTER.match(method === 'HEAD' ? 'GET' : method, below)
  if (match.kind === 'not-found') throw routeNotFound(`${PORTAL_PREFIX}${path}`)
  if (match.kind === 'method-not-allowed')
    throw methodNotAllowed(method, `${PORTAL_PREFIX}${path}`, match.allow)
  let read: Promise<Uint8Array | null> | undefined
  const body = async <T>(schema: BodySchema<T>, subject: string, fields: readonly string[]) => {
    read ??= readRequestBody(req, LIMITS.maxBodyBytes).then((result) =>
      result.kind === 'body' ? result.body : new Uint8Array(LIMITS.maxBodyBytes + 1),
    )
    const bytes = await read
    return readJson(
      { headers: req.headers as Record<string, string | undefined>, body: bytes },
      schema,
      { subject, fields },
    )
  }
  const caller = async () => {
    const found = await accountOf(ctx.accounts, req)
    if (found === undefined || found.account === undefined) throw loginRequired()
    return found
  }
  return match.value(ctx, { req, params: match.params, body, caller })
}

/**
 * Answers `/portal` (the page) and `/portal/api/*` (the account API, contract
 * §22) with the contract's Error body; nothing here is cached, sniffed or framed.
 *
 * @example
 * if (belowBasePath(path, PORTAL_PREFIX) !== undefined) await handlePortalRequest(ctx, req, res, below)
 */
export const handlePortalRequest = async (
  ctx: PortalContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> => {
  let response: SandboxResponse
  try {
    response = await answer(ctx, req, path)
  } catch (error) {
    if (!(error instanceof ApiError)) console.error('[petstore-sandbox] portal error:', error)
    response = (
      error instanceof ApiError
        ? error
        : new ApiError('internal_error', 'The portal failed to answer this request.')
    ).toResponse()
  }
  response.headers['Cache-Control'] ??= 'no-store'
  response.headers['Content-Security-Policy'] ??= "default-src 'none'; frame-ancestors 'none'"
  response.headers['X-Content-Type-Options'] = 'nosniff'
  response.headers['X-Frame-Options'] = 'DENY'
  response.headers['Referrer-Policy'] = 'no-referrer'
  writeNow(res, response)
}
