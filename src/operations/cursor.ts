import { LIMITS } from '../contract/limits.js'

// A cursor is opaque to clients: base64url of "after:<id>". The prefix lets a
// later format be told apart from this one.
const PREFIX = 'after:'

const toBase64Url = (text: string): string =>
  btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')

/** The cursor meaning "the pets after this id". */
export const encodeCursor = (afterId: number): string => toBase64Url(`${PREFIX}${afterId}`)

/** The id a cursor points after, or undefined when the token is not one of ours. */
export const decodeCursor = (cursor: string): number | undefined => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined
  let text: string
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'))
  } catch {
    return undefined
  }
  if (!text.startsWith(PREFIX) || encodeCursor(Number(text.slice(PREFIX.length))) !== cursor)
    return undefined
  const id = Number(text.slice(PREFIX.length))
  return Number.isSafeInteger(id) && id >= 0 && id <= LIMITS.maxId ? id : undefined
}
