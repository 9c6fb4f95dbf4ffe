/** Two hex digits of each byte. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))
/** Ids made at once from one draw of random bytes. */
const BATCH = 256
/** 96 bits an id: 24 hex digits, after `req_`. */
const ID_LENGTH = 28

let digits = ''
let used = BATCH

/** Draws the random bits of the next `BATCH` ids: one string of them all, each `req_` and its digits. */
const refill = (): void => {
  const bytes = new Uint8Array(BATCH * 12)
  globalThis.crypto.getRandomValues(bytes)
  let text = ''
  for (let i = 0; i < bytes.length; i++)
    text += i % 12 === 0 ? `req_${HEX[bytes[i] as number]}` : (HEX[bytes[i] as number] as string)
  digits = text
  used = 0
}

/**
 * A new `Request-Id` (contract §22): `req_` and 96 random bits as 24 hex
 * digits, e.g. `req_5f0c8e2a9b1d4c7e3a6f0b28`. Random, not a counter, so ids
 * are unique across instances without coordination and tell nothing of other
 * callers' traffic; the bits come from the platform's CSPRNG
 * (`crypto.getRandomValues`, in node and browsers), drawn for 256 ids at a
 * time, so an id costs a slice of a string (decision 0062).
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
