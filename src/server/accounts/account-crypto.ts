import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * scrypt's cost (RFC 7914): N = 2^15, r = 8, p = 1, 32 MiB and some 50 ms a
 * hash on one core of the machines this is built on; kept in each hash, so
 * a later change still verifies the hashes made before it.
 */
const SCRYPT = { N: 32_768, r: 8, p: 1, keyLength: 32, saltBytes: 16 } as const

const derive = (password: string, salt: Buffer, N: number, r: number, p: number) =>
  new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      SCRYPT.keyLength,
      { N, r, p, maxmem: 128 * N * r * 2 },
      (error, key) => (error === null ? resolve(key) : reject(error)),
    )
  })

/**
 * A password's slow salted hash: `scrypt$N$r$p$<salt>$<hash>` (base64url).
 *
 * @example
 * const stored = await hashPassword('correct horse battery')
 */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(SCRYPT.saltBytes)
  const key = await derive(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p)
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/**
 * Whether a password matches a stored hash, compared in constant time. A
 * hash that is not one of ours answers false after the same work.
 *
 * @example
 * if (await verifyPassword(given, account.passwordHash)) signIn()
 */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  const N = Number(n)
  const R = Number(r)
  const P = Number(p)
  const valid =
    scheme === 'scrypt' &&
    Number.isInteger(N) &&
    N >= 1024 &&
    N <= 1_048_576 &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(R) &&
    R >= 1 &&
    R <= 32 &&
    Number.isInteger(P) &&
    P >= 1 &&
    P <= 16 &&
    salt !== undefined &&
    hash !== undefined
  const expected = valid ? Buffer.from(hash, 'base64url') : Buffer.alloc(SCRYPT.keyLength)
  const key = await derive(
    password,
    valid ? Buffer.from(salt, 'base64url') : Buffer.alloc(SCRYPT.saltBytes),
    valid ? N : SCRYPT.N,
    valid ? R : SCRYPT.r,
    valid ? P : SCRYPT.p,
  )
  return valid && key.length === expected.length && timingSafeEqual(key, expected)
}

/** SHA-256, hex: how keys, invite codes and log-in cookies are kept (random 128-bit secrets need no slow hash). */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')

/**
 * A portal log-in's CSRF token, derived from the cookie's value (HMAC-SHA-256
 * keyed by it), so no store keeps it: the store holds the cookie's SHA-256
 * only, from which neither the cookie nor this token follows (decision 0065).
 */
export const csrfTokenOf = (cookieToken: string): string =>
  createHmac('sha256', cookieToken).update('petstore-portal csrf').digest('hex').slice(0, 48)

/** Random hex digits (`bytes` bytes of entropy). */
export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex')

/** Whether two secrets are equal, in time that depends on neither. */
export const sameSecret = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest())
