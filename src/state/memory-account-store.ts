import {
  type AccountKeyRecord,
  type AccountRecord,
  type AccountStore,
  isLiveKey,
  type LoginRecord,
  type ThrottleCount,
} from './account-store.js'

/** What the data file keeps of the accounts (version 4): hashes and prefixes only. */
export interface AccountsSnapshot {
  accounts: AccountRecord[]
  keys: AccountKeyRecord[]
  /** Unused invite codes: digests and when they were made. */
  invites: { hash: string; createdAt: number }[]
  /**
   * Portal log-ins by the cookie's digest (decision 0065), each account's
   * oldest first; absent from files written before they were kept.
   */
  logins?: ({ hash: string } & LoginRecord)[] | undefined
}

/** The account seam in this process: what `--data` keeps. */
export interface MemoryAccountStore extends AccountStore {
  snapshot(): AccountsSnapshot
  /** Replaces everything with a snapshot (a data file's); log-ins over at `now` are left out. */
  load(snapshot: AccountsSnapshot, now: number): void
  /** Told after every change that the data file keeps (accounts, keys, invites, log-ins); may answer a promise to wait for. */
  onChange: (() => Promise<void> | undefined) | undefined
}

/** Throttles remembered at most; the oldest window is forgotten first. */
const MAX_COUNTERS = 100_000
/** Portal log-ins remembered at most; the oldest is signed out first (each account holds a few: `addLogin`). */
const MAX_LOGINS = 100_000

/**
 * The accounts in this process (decision 0061): maps by id, by email and by
 * key digest, so the request path's look-up is one Map read. Synchronous, so
 * the in-memory sandbox stays synchronous on the request path (decision 0039).
 *
 * @example
 * const store = createMemoryAccountStore()
 * store.createAccount({ id: 'acct_…', email: 'a@example.com', passwordHash, createdAt: now })
 */
export const createMemoryAccountStore = (): MemoryAccountStore => {
  const accounts = new Map<string, AccountRecord>()
  const byEmail = new Map<string, string>()
  const keys = new Map<string, AccountKeyRecord>()
  const byHash = new Map<string, string>()
  // Account id → its key ids, so an account's keys are found without a scan.
  const keyIds = new Map<string, Set<string>>()
  const invites = new Map<string, number>()
  const logins = new Map<string, LoginRecord>()
  // Account id → the digests of its log-ins, oldest first.
  const loginsOf = new Map<string, Set<string>>()
  const counters = new Map<string, ThrottleCount>()

  const changed = (): Promise<void> | undefined => store.onChange?.()
  // A change a caller relies on (a sign-up, a key shown once, a revoke, a log-in or log-out)
  // answers once the data file has it, so a crash after the answer never undoes it.
  const written = <T>(value: T): T | Promise<T> => {
    const writing = changed()
    return writing === undefined ? value : writing.then(() => value)
  }
  const keysOf = (accountId: string): AccountKeyRecord[] =>
    [...(keyIds.get(accountId) ?? [])].flatMap((id) => keys.get(id) ?? [])
  const putKey = (key: AccountKeyRecord): void => {
    keys.set(key.id, key)
    byHash.set(key.hash, key.id)
    const ids = keyIds.get(key.accountId) ?? new Set<string>()
    keyIds.set(key.accountId, ids)
    ids.add(key.id)
  }
  const dropKey = (key: AccountKeyRecord): void => {
    keys.delete(key.id)
    byHash.delete(key.hash)
    keyIds.get(key.accountId)?.delete(key.id)
  }
  const dropLogin = (tokenHash: string): boolean => {
    const login = logins.get(tokenHash)
    if (login === undefined) return false
    logins.delete(tokenHash)
    const mine = loginsOf.get(login.accountId)
    mine?.delete(tokenHash)
    if (mine?.size === 0) loginsOf.delete(login.accountId)
    return true
  }
  const putLogin = (tokenHash: string, login: LoginRecord): Set<string> => {
    logins.set(tokenHash, login)
    const mine = loginsOf.get(login.accountId) ?? new Set<string>()
    loginsOf.set(login.accountId, mine)
    mine.add(tokenHash)
    return mine
  }
  const forget = <K, V>(map: Map<K, V>, max: number): void => {
    if (map.size <= max) return
    const oldest = map.keys().next()
    if (oldest.done !== true) map.delete(oldest.value)
  }

  const store: MemoryAccountStore = {
    onChange: undefined,
    createAccount(account) {
      if (byEmail.has(account.email) || accounts.has(account.id)) return false
      accounts.set(account.id, account)
      byEmail.set(account.email, account.id)
      return written(true)
    },
    accountByEmail(email) {
      const id = byEmail.get(email)
      return id === undefined ? undefined : accounts.get(id)
    },
    account: (id) => accounts.get(id),
    listAccounts(after, limit) {
      const sorted = [...accounts.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
      const start = after === undefined ? 0 : sorted.findIndex((a) => a.id > after)
      return start === -1 ? [] : sorted.slice(start, start + limit)
    },
    countAccounts: () => accounts.size,
    deleteAccount(id) {
      const account = accounts.get(id)
      if (account === undefined) return false
      accounts.delete(id)
      byEmail.delete(account.email)
      for (const key of keysOf(id)) dropKey(key)
      keyIds.delete(id)
      for (const hash of loginsOf.get(id) ?? []) dropLogin(hash)
      return written(true)
    },
    addKey(key, maxLive, now) {
      if (!accounts.has(key.accountId)) return 'no_account'
      if (keysOf(key.accountId).filter((k) => isLiveKey(k, now)).length >= maxLive)
        return 'too_many'
      putKey({ ...key, limits: { ...key.limits } })
      return written('added' as const)
    },
    listKeys: (accountId, now) =>
      keysOf(accountId)
        .filter((key) => isLiveKey(key, now))
        .map((key) => ({ ...key })),
    key(accountId, keyId) {
      const key = keys.get(keyId)
      return key?.accountId === accountId ? { ...key } : undefined
    },
    keyByHash(hash, now) {
      const id = byHash.get(hash)
      const key = id === undefined ? undefined : keys.get(id)
      if (key === undefined) return undefined
      if (isLiveKey(key, now)) return key
      // A key past its end is gone for good: nothing can bring it back.
      dropKey(key)
      void changed()
      return undefined
    },
    expireKey(accountId, keyId, at, now) {
      const key = keys.get(keyId)
      if (key === undefined || key.accountId !== accountId || !isLiveKey(key, now)) return false
      if (key.expiresAt === null || at < key.expiresAt) key.expiresAt = at
      return written(true)
    },
    touchKey(accountId, keyId, at) {
      const key = keys.get(keyId)
      if (key?.accountId === accountId) key.lastUsedAt = at
    },
    addInvite(codeHash, createdAt) {
      invites.set(codeHash, createdAt)
      return written(undefined)
    },
    takeInvite(codeHash) {
      const had = invites.delete(codeHash)
      return had ? written(had) : had
    },
    addLogin(tokenHash, login, maxPerAccount) {
      dropLogin(tokenHash)
      const mine = putLogin(tokenHash, { accountId: login.accountId, expiresAt: login.expiresAt })
      for (const oldest of mine) {
        if (mine.size <= maxPerAccount) break
        dropLogin(oldest)
      }
      if (logins.size > MAX_LOGINS) {
        const oldest = logins.keys().next()
        if (oldest.done !== true) dropLogin(oldest.value)
      }
      // On disk before the cookie is sent: a restart keeps the log-in (decision 0065).
      return written(undefined)
    },
    login(tokenHash, now) {
      const login = logins.get(tokenHash)
      if (login === undefined) return undefined
      if (now < login.expiresAt) return login
      dropLogin(tokenHash)
      void changed()
      return undefined
    },
    // On disk before the answer: a signed-out cookie never comes back with a restart.
    dropLogin: (tokenHash) => (dropLogin(tokenHash) ? written(undefined) : undefined),
    hit(counter, windowMs, now) {
      const current = counters.get(counter)
      const next =
        current === undefined || now >= current.resetAt
          ? { count: 1, resetAt: now + windowMs }
          : { count: current.count + 1, resetAt: current.resetAt }
      counters.delete(counter)
      counters.set(counter, next)
      forget(counters, MAX_COUNTERS)
      return { ...next }
    },
    unhit(counter, now) {
      const current = counters.get(counter)
      if (current !== undefined && now < current.resetAt && current.count > 0)
        counters.set(counter, { count: current.count - 1, resetAt: current.resetAt })
    },
    snapshot: () => ({
      accounts: [...accounts.values()].map((account) => ({ ...account })),
      keys: [...keys.values()].map((key) => ({ ...key, limits: { ...key.limits } })),
      invites: [...invites].map(([hash, createdAt]) => ({ hash, createdAt })),
      logins: [...logins].map(([hash, login]) => ({ hash, ...login })),
    }),
    load(snapshot, now) {
      accounts.clear()
      byEmail.clear()
      keys.clear()
      byHash.clear()
      keyIds.clear()
      invites.clear()
      logins.clear()
      loginsOf.clear()
      for (const account of snapshot.accounts) {
        accounts.set(account.id, { ...account })
        byEmail.set(account.email, account.id)
      }
      for (const key of snapshot.keys) {
        if (!accounts.has(key.accountId)) continue
        putKey({ ...key, limits: { ...key.limits } })
      }
      for (const invite of snapshot.invites) invites.set(invite.hash, invite.createdAt)
      for (const { hash, accountId, expiresAt } of snapshot.logins ?? [])
        if (accounts.has(accountId) && now < expiresAt) putLogin(hash, { accountId, expiresAt })
    },
  }
  return store
}
