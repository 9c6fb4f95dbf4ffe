/** Crockford's base32 in lower case: no i, l, o or u to misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'
/** Random bytes drawn at once and used 12 at a time (96 bits an id). */
const POOL_IDS = 256
const ID_BYTES = 12
const pool = new Uint8Array(POOL_IDS * ID_BYTES)
let used = pool.length

/**
 * A new `Request-Id` (contract §22): `req_` and 96 random bits as 20
 * characters of base32, e.g. `req_8k2m0q4v7c1x9h3t5b6n`. Random, not a
 * counter, so ids are unique across instances without coordination and tell
 * nothing of other callers' traffic; the bits come from the platform's CSPRNG
 * (`crypto.getRandomValues`, in node and browsers), drawn 256 ids at a time.
 *
 * @example
 * response.headers['Request-Id'] = newRequestId()
 */
export const newRequestId = (): string => {
  if (used === pool.length) {
    globalThis.crypto.getRandomValues(pool)
    used = 0
  }
  let out = 'req_'
  // 12 bytes = 96 bits = 19.2 base32 digits: four 24-bit groups of 5 digits (the last digit of each holds 4 bits).
  for (let group = 0; group < 4; group++) {
    const at = used + group * 3
    let bits =
      ((pool[at] as number) << 16) | ((pool[at + 1] as number) << 8) | (pool[at + 2] as number)
    let digits = ''
    for (let i = 0; i < 5; i++) {
      digits = (ALPHABET[bits & 31] as string) + digits
      bits >>>= 5
    }
    out += digits
  }
  used += ID_BYTES
  return out
}

/** A request id as `newRequestId` makes them (what `?requestId=` accepts). */
export const REQUEST_ID_PATTERN = /^req_[0-9a-z]{1,64}$/
