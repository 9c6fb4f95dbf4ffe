const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * A header value as the client wrote it, for a message that shows it. HTTP
 * carries header bytes, and node:http and Fetch `Headers` alike hand them over
 * one character per byte (latin1), so `X-Sandbox-Scenario: ✓` arrives as
 * `â\u009c\u0093`. Bytes that read as UTF-8 are read so; anything else (true
 * latin1, a string with wider characters, plain ASCII) is returned as it is.
 * For error paths: it allocates.
 *
 * @example
 * readHeaderText('\u00e2\u009c\u0093') // '✓'
 */
export const readHeaderText = (value: string): string => {
  let high = false
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code > 0xff) return value
    if (code >= 0x80) high = true
  }
  if (!high) return value
  try {
    return utf8.decode(Uint8Array.from(value, (char) => char.charCodeAt(0)))
  } catch {
    return value
  }
}
