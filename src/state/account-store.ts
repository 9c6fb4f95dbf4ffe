import type { PlanLimits, PlanName } from '../contract/plans.js'
import type { Awaitable } from '../http/awaitable.js'

/**
 * THE ACCOUNT SEAM (contract §22, decision 0061): everything the accounts of
 * a hosted sandbox keep, in one interface that the memory store (this
 * process, kept by `--data`) and a shared store (Redis, one node or Cluster)
 * both implement, so that every instance behind one address sees every
 * account, key, revocation and roll at once.
 *
 * The store never sees a secret: passwords arrive as scrypt hashes, keys,
 * invite codes and portal log-ins as SHA-256 digests (hex), computed by the
 * server (src/server/accounts). A copy of the store gives no key and no
 * password. Times are epoch ms from the sandbox's injectable clock (the
 * caller passes `now`); the store reads no clock of its own.
 *
 * An account's sandbox is the session whose id is the account's id
 * (`acct_…`): its pets, clock, scenario, timeline, journal, report and
 * expectations are the session machinery's (src/state), not this store's.
 */
export interface AccountStore {
  /** Adds an account; false when its email (compared lower-cased) is taken. */
  createAccount(account: AccountRecord): Awaitable<boolean>
  /** The account of that email (lower-cased by the caller), or undefined. */
  accountByEmail(email: string): Awaitable<AccountRecord | undefined>
  account(id: string): Awaitable<AccountRecord | undefined>
  /** Accounts in id order, the first `limit` after the id `after` (undefined: from the start). */
  listAccounts(after: string | undefined, limit: number): Awaitable<AccountRecord[]>
  /** How many accounts there are. */
  countAccounts(): Awaitable<number>
  /** Drops an account with its keys and its portal log-ins; false when there is none. */
  deleteAccount(id: string): Awaitable<boolean>

  /**
   * Adds a key to its account when the account has fewer than `maxLive` live
   * keys at `now` (atomically: two concurrent adds never pass the cap).
   * Answers `added`, `too_many` or `no_account`.
   */
  addKey(key: AccountKeyRecord, maxLive: number, now: number): Awaitable<AddKeyResult>
  /** The account's keys still live at `now` (not revoked, not past `expiresAt`), oldest first. */
  listKeys(accountId: string, now: number): Awaitable<AccountKeyRecord[]>
  /** One key of the account by its id, live or not (undefined once dropped). */
  key(accountId: string, keyId: string): Awaitable<AccountKeyRecord | undefined>
  /**
   * THE REQUEST PATH'S LOOK-UP: the live key (at `now`) whose SHA-256 digest is
   * `hash`, or undefined (unknown, revoked, expired, or its account deleted).
   */
  keyByHash(hash: string, now: number): Awaitable<AccountKeyRecord | undefined>
  /**
   * Ends a key at `at` (`at <= now`: revoked at once; later: a rolled key's
   * grace). A key already ending sooner keeps its end. False when there is
   * no such live key.
   */
  expireKey(accountId: string, keyId: string, at: number, now: number): Awaitable<boolean>
  /** Records a use of the key (`lastUsedAt`); best effort, never on a failed request's account. */
  touchKey(accountId: string, keyId: string, at: number): Awaitable<void>

  /** Adds an invite code (its digest), good for one sign-up. */
  addInvite(codeHash: string, createdAt: number): Awaitable<void>
  /** Uses up an invite code: true once, false for an unknown or used code. */
  takeInvite(codeHash: string): Awaitable<boolean>

  /**
   * A portal log-in (the cookie's digest) and what it holds; past
   * `maxPerAccount` log-ins of its account, the account's oldest is signed out.
   */
  addLogin(tokenHash: string, login: LoginRecord, maxPerAccount: number): Awaitable<void>
  /** The log-in of that digest while it lasts (`now` before `expiresAt`), or undefined. */
  login(tokenHash: string, now: number): Awaitable<LoginRecord | undefined>
  dropLogin(tokenHash: string): Awaitable<void>

  /**
   * Counts one hit of a throttle (sign-ups per address, failed log-ins per
   * email and per address) in a fixed window of `windowMs` that starts at
   * its first hit; answers the count with this hit and when the window ends.
   */
  hit(counter: string, windowMs: number, now: number): Awaitable<ThrottleCount>
  /**
   * Takes back one hit of a window still running at `now` (a log-in counted
   * before its check, that succeeded); nothing once the window ended.
   */
  unhit(counter: string, now: number): Awaitable<void>
}

/** An account: who signs in. */
export interface AccountRecord {
  /** `acct_` and 24 hex digits; also the id of the account's session. */
  id: string
  /** As given, in NFC and lower-cased (unique). */
  email: string
  /** `scrypt$N$r$p$<salt base64url>$<hash base64url>`. */
  passwordHash: string
  createdAt: number
}

/** A key of an account, as kept: never the key itself. */
export interface AccountKeyRecord {
  /** `key_` and 16 hex digits: what the portal and the API name it by. */
  id: string
  accountId: string
  /** Given by the account holder (1 to 100 characters). */
  name: string
  plan: PlanName
  /** The plan's limits, or an enterprise key's custom ones (only the admin makes those). */
  limits: PlanLimits
  /** The first characters of the key (`sk_acct_` and 4 more): enough to recognise it, not to use it. */
  prefix: string
  /** SHA-256 of the key, hex. */
  hash: string
  createdAt: number
  lastUsedAt: number | null
  /** When the key stops working (revoked, or a roll's grace); null while it lives. */
  expiresAt: number | null
}

export type AddKeyResult = 'added' | 'too_many' | 'no_account'

/**
 * A portal log-in (cookie), kept by its digest. Its CSRF token is derived from
 * the cookie by the server (decision 0065), so nothing here is a secret.
 */
export interface LoginRecord {
  accountId: string
  expiresAt: number
}

export interface ThrottleCount {
  count: number
  /** When the window ends, epoch ms. */
  resetAt: number
}

/** Whether a key is live at `now`. */
export const isLiveKey = (key: AccountKeyRecord, now: number): boolean =>
  key.expiresAt === null || now < key.expiresAt
