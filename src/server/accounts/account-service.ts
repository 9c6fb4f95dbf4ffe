import type { ApiKeyInfo } from '../../auth/key-registry.js'
import { PLAN_LIMITS, type PlanLimits, type PlanName } from '../../contract/plans.js'
import { ApiError } from '../../http/api-error.js'
import { anonymousBucketName } from '../../rate-limit/anonymous-bucket-name.js'
import type {
  AccountKeyRecord,
  AccountRecord,
  AccountStore,
  LoginRecord,
} from '../../state/account-store.js'
import {
  csrfTokenOf,
  hashPassword,
  randomHex,
  sameSecret,
  sha256Hex,
  verifyPassword,
} from './account-crypto.js'

/** `--accounts`: who may sign up (contract §22). */
export type AccountsMode = 'open' | 'invite'

/** The budgets and throttles of contract §22, in one place. */
export const ACCOUNT_LIMITS = {
  /** Live keys an account may hold. */
  maxKeys: 10,
  /** Journal entries per account's sandbox (the oldest go first). */
  journalEntries: 1_000,
  /** Pets per account's sandbox (then 409 `store_full`). */
  maxPets: 10_000,
  /** Failed log-ins per email, and per client address, in `loginWindowMs`. */
  maxFailedLogins: 10,
  loginWindowMs: 60_000,
  /** Sign-ups per client address in `signupWindowMs`. */
  maxSignups: 5,
  signupWindowMs: 3_600_000,
  /** Portal log-ins an account holds at once (browsers, devices); the oldest is signed out past it. */
  maxLogins: 20,
  /** How long a portal log-in lasts. */
  loginMs: 7 * 86_400_000,
  /** A rolled key's longest grace. */
  maxRollGraceS: 86_400,
  /** An account's sandbox data may be dropped after this long unused. */
  sandboxIdleMs: 30 * 86_400_000,
  /** Passwords: characters (code points). */
  minPassword: 12,
  maxPassword: 256,
  /** A key's name: characters (code points). */
  maxKeyName: 100,
  /** Accounts on one page of `GET /__sandbox/accounts`. */
  maxPage: 100,
  /** `lastUsedAt` is written at most this often per key (the request path stays one read). */
  touchEveryMs: 60_000,
} as const

/** A 401 of the account API says how to sign in (RFC 9110: a 401 names a scheme): the portal cookie. */
export const PORTAL_CHALLENGE = { 'WWW-Authenticate': 'Cookie realm="petstore-portal"' } as const

/** The key text's start: an account key is told from a demo or run-time key by it. */
export const ACCOUNT_KEY_PREFIX = 'sk_acct_'
/** Characters of a key kept and shown: the prefix and 4 more. */
const SHOWN = ACCOUNT_KEY_PREFIX.length + 4
/** Account ids: also their sandbox's session id. */
export const ACCOUNT_ID = /^acct_[0-9a-f]{24}$/

/** An account as the API shows it. */
export interface AccountView {
  id: string
  email: string
  createdAt: string
}

/** A key as the API lists it: never the key. */
export interface KeyView {
  id: string
  name: string
  plan: PlanName
  prefix: string
  limits: PlanLimits
  createdAt: string
  lastUsedAt: string | null
  /** When a rolled key stops working; absent while it lives. */
  expiresAt?: string
}

/** A portal log-in as a request with its cookie finds it: the stored record and the CSRF token the cookie gives. */
export interface PortalLogin extends LoginRecord {
  csrfToken: string
}

/** A portal log-in made: the cookie's value and its CSRF token. */
export interface Login {
  token: string
  csrfToken: string
  account: AccountRecord
  expiresAt: number
}

const iso = (ms: number): string => new Date(ms).toISOString()

const viewAccount = (account: AccountRecord): AccountView => ({
  id: account.id,
  email: account.email,
  createdAt: iso(account.createdAt),
})

/** A key record as the API shows it. */
export const viewKey = (key: AccountKeyRecord): KeyView => ({
  id: key.id,
  name: key.name,
  plan: key.plan,
  prefix: key.prefix,
  limits: { ...key.limits },
  createdAt: iso(key.createdAt),
  lastUsedAt: key.lastUsedAt === null ? null : iso(key.lastUsedAt),
  ...(key.expiresAt === null ? {} : { expiresAt: iso(key.expiresAt) }),
})

const retryAfter = (resetAt: number, now: number): string =>
  String(Math.max(1, Math.ceil((resetAt - now) / 1000)))

/**
 * An email as accounts are found by it: NFC, then lower-cased. `josé` typed
 * composed or decomposed (as some keyboards and systems send it) is one
 * account, one throttle counter.
 */
const canonicalEmail = (email: string): string => email.normalize('NFC').toLowerCase()

/** A caller's client address as its throttles count it (an IPv6 /64 as one). */
const addressOf = (address: string | undefined): string =>
  anonymousBucketName(`anon:${address ?? 'unknown'}`).slice(5)

export interface AccountServiceOptions {
  store: AccountStore
  mode: AccountsMode
  /** The server's clock, epoch ms (the `now` option; `Date.now` by default). */
  now: () => number
}

/**
 * Accounts as a provider's sandbox runs them (contract §22): sign-up, log-in
 * and log-out, keys made, rolled and revoked by their holder, the admin's
 * invites, account listing and enterprise keys, and the request path's
 * look-up of an account key. Every secret is hashed here before the store
 * sees it (decision 0061).
 *
 * @example
 * const accounts = createAccountService({ store: createMemoryAccountStore(), mode: 'open', now: Date.now })
 * const { account } = await accounts.signup({ email: 'dev@example.com', password: 'a long passphrase' }, '203.0.113.9')
 */
export const createAccountService = (options: AccountServiceOptions) => {
  const { store, mode, now } = options
  // The same work for an unknown email as for a wrong password: a hash made once to verify against.
  let dummy: Promise<string> | undefined
  const dummyHash = (): Promise<string> => {
    dummy ??= hashPassword(randomHex(16))
    return dummy
  }

  const openLogin = async (account: AccountRecord): Promise<Login> => {
    const token = randomHex(32)
    const login: LoginRecord = { accountId: account.id, expiresAt: now() + ACCOUNT_LIMITS.loginMs }
    await store.addLogin(sha256Hex(token), login, ACCOUNT_LIMITS.maxLogins)
    return { token, csrfToken: csrfTokenOf(token), account, expiresAt: login.expiresAt }
  }

  const makeKey = async (
    accountId: string,
    input: { name: string; plan: PlanName; limits?: PlanLimits | undefined },
  ): Promise<{ key: string; record: AccountKeyRecord }> => {
    const at = now()
    const key = `${ACCOUNT_KEY_PREFIX}${randomHex(24)}`
    const record: AccountKeyRecord = {
      id: `key_${randomHex(8)}`,
      accountId,
      name: input.name,
      plan: input.plan,
      limits: { ...(input.limits ?? PLAN_LIMITS[input.plan]) },
      prefix: key.slice(0, SHOWN),
      hash: sha256Hex(key),
      createdAt: at,
      lastUsedAt: null,
      expiresAt: null,
    }
    const added = await store.addKey(record, ACCOUNT_LIMITS.maxKeys, at)
    if (added === 'no_account')
      throw new ApiError('account_not_found', `No account "${accountId}" exists.`)
    if (added === 'too_many')
      throw new ApiError(
        'too_many_keys',
        `An account holds at most ${ACCOUNT_LIMITS.maxKeys} live keys. Revoke one first.`,
      )
    return { key, record }
  }

  const liveKey = async (accountId: string, keyId: string): Promise<AccountKeyRecord> => {
    const key = await store.key(accountId, keyId)
    if (key === undefined || (key.expiresAt !== null && key.expiresAt <= now()))
      throw new ApiError('key_not_found', `No live key "${keyId}" in this account.`)
    return key
  }

  return {
    mode,
    now,
    async signup(
      input: { email: string; password: string; invite?: string | undefined },
      address: string | undefined,
    ): Promise<Login> {
      const email = canonicalEmail(input.email)
      const at = now()
      // Counted before the work, atomically: concurrent sign-ups never pass the cap.
      const signups = await store.hit(
        `signup:${addressOf(address)}`,
        ACCOUNT_LIMITS.signupWindowMs,
        at,
      )
      if (signups.count > ACCOUNT_LIMITS.maxSignups)
        throw new ApiError(
          'rate_limit_exceeded',
          `At most ${ACCOUNT_LIMITS.maxSignups} sign-ups an hour come from one address. Retry after the time given in the Retry-After header.`,
          { headers: { 'Retry-After': retryAfter(signups.resetAt, at) } },
        )
      if (mode === 'invite') {
        if (input.invite === undefined)
          throw new ApiError(
            'invite_required',
            'This sandbox signs up by invitation: send the invite code you were given as "invite".',
          )
        // The invite before the email: without a valid invite, nobody learns which emails
        // have accounts (an invite spent on a taken email is given back below).
        if (!(await store.takeInvite(sha256Hex(input.invite))))
          throw new ApiError('invite_invalid', 'This invite code is unknown or was used already.')
      }
      const account: AccountRecord = {
        id: `acct_${randomHex(12)}`,
        email,
        passwordHash: await hashPassword(input.password),
        createdAt: at,
      }
      if (!(await store.createAccount(account))) {
        // An invite spent on a taken email is given back.
        if (mode === 'invite' && input.invite !== undefined)
          await store.addInvite(sha256Hex(input.invite), at)
        throw new ApiError('email_taken', 'An account with this email exists already. Sign in.')
      }
      return openLogin(account)
    },

    async login(
      input: { email: string; password: string },
      address: string | undefined,
    ): Promise<Login> {
      const email = canonicalEmail(input.email)
      const at = now()
      // The address first: an address over its cap makes no counter of an email (a flood of
      // made-up emails from one address would otherwise push real counters out of the store).
      const counters = [`login-addr:${addressOf(address)}`, `login-email:${sha256Hex(email)}`]
      // Each attempt is counted as a failure before the check, atomically, and given back when
      // it succeeds: concurrent guesses never get more than the cap checked (a peek first
      // let every guess sent at once through).
      for (const counter of counters) {
        const { count, resetAt } = await store.hit(counter, ACCOUNT_LIMITS.loginWindowMs, at)
        if (count > ACCOUNT_LIMITS.maxFailedLogins)
          throw new ApiError(
            'rate_limit_exceeded',
            `Too many failed sign-ins (${ACCOUNT_LIMITS.maxFailedLogins} a minute for one email or one address). Retry after the time given in the Retry-After header.`,
            { headers: { 'Retry-After': retryAfter(resetAt, at) } },
          )
      }
      const account = await store.accountByEmail(email)
      // An unknown email costs the same scrypt as a wrong password, and gets the same answer.
      const matches = await verifyPassword(
        input.password,
        account?.passwordHash ?? (await dummyHash()),
      )
      if (account === undefined || !matches)
        throw new ApiError('invalid_credentials', 'The email or the password is wrong.', {
          headers: { ...PORTAL_CHALLENGE },
        })
      for (const counter of counters) await store.unhit(counter, at)
      return openLogin(account)
    },

    async logout(token: string): Promise<void> {
      await store.dropLogin(sha256Hex(token))
    },

    /** The log-in of a cookie's value, with its account; undefined when it is none (or over). */
    async loggedIn(
      token: string | undefined,
    ): Promise<{ account: AccountRecord; login: PortalLogin } | undefined> {
      if (token === undefined || token.length === 0 || token.length > 200) return undefined
      const login = await store.login(sha256Hex(token), now())
      if (login === undefined) return undefined
      const account = await store.account(login.accountId)
      return account === undefined
        ? undefined
        : { account, login: { ...login, csrfToken: csrfTokenOf(token) } }
    },

    /** Whether a write's `X-CSRF-Token` is the log-in's (constant time). */
    csrfMatches: (login: PortalLogin, sent: string | undefined): boolean =>
      sent !== undefined && sameSecret(sent, login.csrfToken),

    me: (account: AccountRecord, login: PortalLogin) => ({
      ...viewAccount(account),
      csrfToken: login.csrfToken,
    }),

    async listKeys(accountId: string): Promise<KeyView[]> {
      return (await store.listKeys(accountId, now())).map(viewKey)
    },

    async createKey(
      accountId: string,
      input: { name: string; plan: PlanName; limits?: PlanLimits | undefined },
    ): Promise<KeyView & { key: string }> {
      const { key, record } = await makeKey(accountId, input)
      return { ...viewKey(record), key }
    },

    /** A new key under the same name and plan; the old one ends at once or after `expiresInS`. */
    async rollKey(
      accountId: string,
      keyId: string,
      expiresInS: number,
    ): Promise<KeyView & { key: string }> {
      const old = await liveKey(accountId, keyId)
      const at = now()
      // The new key first: the account is never left without one. The cap counts the old key
      // while it lives, so a roll at the cap ends the old one first when it ends at once.
      if (expiresInS === 0) await store.expireKey(accountId, keyId, at, at)
      const made = await makeKey(accountId, { name: old.name, plan: old.plan, limits: old.limits })
      if (expiresInS > 0) await store.expireKey(accountId, keyId, at + expiresInS * 1000, at)
      return { ...viewKey(made.record), key: made.key }
    },

    async revokeKey(accountId: string, keyId: string): Promise<void> {
      const at = now()
      if (!(await store.expireKey(accountId, keyId, at, at)))
        throw new ApiError('key_not_found', `No live key "${keyId}" in this account.`)
    },

    /** A new invite code (admin): shown once, kept as a digest. */
    async createInvite(): Promise<string> {
      const code = `inv_${randomHex(16)}`
      await store.addInvite(sha256Hex(code), now())
      return code
    },

    async listAccounts(after: string | undefined, limit: number) {
      const page = await store.listAccounts(after, limit)
      const total = await store.countAccounts()
      return { accounts: page.map(viewAccount), total, last: page.at(-1)?.id }
    },

    async deleteAccount(id: string): Promise<void> {
      if (!(await store.deleteAccount(id)))
        throw new ApiError('account_not_found', `No account "${id}" exists.`)
    },

    /**
     * THE REQUEST PATH: the account key a bearer token is, as the pipeline
     * knows keys (`source: 'account'`, its account's session), or undefined.
     * One SHA-256 and one look-up; `lastUsedAt` written at most once a minute.
     */
    findKey(token: string): ApiKeyInfo | undefined | Promise<ApiKeyInfo | undefined> {
      if (!token.startsWith(ACCOUNT_KEY_PREFIX)) return undefined
      const at = now()
      const found = store.keyByHash(sha256Hex(token), at)
      const toInfo = (key: AccountKeyRecord | undefined): ApiKeyInfo | undefined => {
        if (key === undefined) return undefined
        if (key.lastUsedAt === null || at - key.lastUsedAt >= ACCOUNT_LIMITS.touchEveryMs) {
          const touched = store.touchKey(key.accountId, key.id, at)
          if (touched instanceof Promise) touched.catch(() => {})
        }
        return {
          key: key.id,
          plan: key.plan,
          limits: key.limits,
          source: 'account',
          session: key.accountId,
        }
      }
      return found instanceof Promise ? found.then(toInfo) : toInfo(found)
    },
  }
}

export type AccountService = ReturnType<typeof createAccountService>
