import { LIMITS } from '../contract/limits.js'

// A cursor is opaque to clients: base64url of "after:<id>". The prefix lets a
// later format be told apart from this one.
const PREFIX = 'after:'

const toBase64Url = (text: string): string =>
  btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')

// Pages are asked for again and again: a cursor is made once per id (a bounded cache).
const cursors = new Map<number, string>()

/** The cursor meaning "the pets after this id". */
export const encodeCursor = (afterId: number): string => {
  let cursor = cursors.get(afterId)
  if (cursor === undefined) {
    if (cursors.size >= 4_096) cursors.clear()
    cursor = toBase64Url(`${PREFIX}${afterId}`)
    cursors.set(afterId, cursor)
  }
  return cursor
}

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
