/** Ids made at once from one draw of random bytes. */
const BATCH = 256
/** 96 bits an id: 24 hex digits, after `req_`. */
const ID_LENGTH = 28
const RANDOM_BYTES = 12

const ascii = new TextEncoder()
/** The character code of each hex digit. */
const DIGITS = ascii.encode('0123456789abcdef')
/** The next `BATCH` ids' characters, `req_` already in place: a refill writes only the digits. */
const chars = new Uint8Array(BATCH * ID_LENGTH)
for (let at = 0; at < chars.length; at += ID_LENGTH) chars.set(ascii.encode('req_'), at)
const random = new Uint8Array(BATCH * RANDOM_BYTES)
const decoder = new TextDecoder()

let digits = ''
let used = BATCH

/**
 * Draws the random bits of the next `BATCH` ids and writes them as hex digits
 * into `chars`, decoded at once into one string that each id slices (a string
 * built by `+=`, two digits at a time, cost three times as much, decision 0064).
 */
const refill = (): void => {
  globalThis.crypto.getRandomValues(random)
  for (let id = 0; id < BATCH; id++) {
    let at = id * ID_LENGTH + 4
    for (let from = id * RANDOM_BYTES; from < (id + 1) * RANDOM_BYTES; from++) {
      const byte = random[from] as number
      chars[at++] = DIGITS[byte >> 4] as number
      chars[at++] = DIGITS[byte & 15] as number
    }
  }
  digits = decoder.decode(chars)
  used = 0
}

/**
 * A new `Request-Id` (contract §22): `req_` and 96 random bits as 24 hex
 * digits, e.g. `req_5f0c8e2a9b1d4c7e3a6f0b28`. Random, not a counter, so ids
 * are unique across instances without coordination and tell nothing of other
 * callers' traffic; the bits come from the platform's CSPRNG
 * (`crypto.getRandomValues`, in node and browsers), drawn for 256 ids at a
 * time, so an id costs a slice of a string (decisions 0062, 0064).
 *
 * @example
 * response.headers['Request-Id'] = newRequestId()
 */
export const newRequestId = (): string => {
  if (used === BATCH) refill()
  const at = used++ * ID_LENGTH
  return digits.slice(at, at + ID_LENGTH)
}

/** What `?requestId=` accepts: `req_` and 1-64 lower-case letters and digits. */
export const REQUEST_ID_PATTERN = /^req_[0-9a-z]{1,64}$/
