import { bodyBytes, noAnswer, type ShapeFault, withLength } from './fault-answer.js'

const decoder = new TextDecoder()

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The status and headers, `Content-Type: application/json`, and the JSON
 * body cut at its middle byte: never valid JSON (a cut that still parses,
 * `12` of `1234`, loses more bytes). The journal keeps the bytes sent.
 */
export const malformedJson: ShapeFault = (answer) => {
  const bytes = bodyBytes(answer)
  if (bytes.byteLength === 0) return noAnswer()
  let length = Math.floor(bytes.byteLength / 2)
  while (length > 0 && parses(decoder.decode(bytes.subarray(0, length)))) length--
  const body = bytes.subarray(0, length)
  const headers = withLength(
    { ...answer.headers, 'Content-Type': 'application/json' },
    body.byteLength,
  )
  return {
    delivery: { head: { status: answer.status, headers }, body, end: 'complete' },
    journal: { status: answer.status, headers, body: decoder.decode(body) },
  }
}
