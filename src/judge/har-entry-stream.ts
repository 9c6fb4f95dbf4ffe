// Loaded on demand: only `report --from` and `pact --from` read a HAR.
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json'
import type { JournalEntry } from '../journal/journal.js'
import { createHarNumbering, journalEntryOfHar, notHar } from './entries-from-har.js'

/** Characters of a body a HAR read keeps by default (`--max-body-chars`): 1 MiB. */
export const DEFAULT_HAR_BODY_CHARS = 1_048_576

/** A HAR read chunk by chunk: `write` each chunk of the file, then `end`. */
export interface HarEntryStream {
  write(chunk: string | Uint8Array): void
  end(): void
}

type Kind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'

const KIND_OF: Partial<Record<TokenType, Kind>> = {
  [TokenType.LEFT_BRACE]: 'object',
  [TokenType.LEFT_BRACKET]: 'array',
  [TokenType.STRING]: 'string',
  [TokenType.NUMBER]: 'number',
  [TokenType.TRUE]: 'boolean',
  [TokenType.FALSE]: 'boolean',
  [TokenType.NULL]: 'null',
}

interface Frame {
  object: boolean
  /** In an object: the key whose value comes next (or came last). */
  key: string | undefined
  expectKey: boolean
}

/**
 * Watches the tokens for the HAR's frame (an object whose `log` is an object
 * whose `entries` is an array) without keeping any value: the entries are
 * the only values the parser builds.
 */
const createFrameWatch = () => {
  const stack: Frame[] = []
  const seen: { root?: Kind; log?: Kind; entries?: Kind } = {}
  const valueAt = (kind: Kind): void => {
    const depth = stack.length
    if (depth === 0) seen.root = kind
    else if (depth === 1 && stack[0]?.object === true && stack[0].key === 'log') seen.log = kind
    else if (
      depth === 2 &&
      stack[0]?.key === 'log' &&
      stack[1]?.object === true &&
      stack[1].key === 'entries'
    )
      seen.entries = kind
  }
  // Below the entries (depth 4 and more, nearly every token) only the depth is counted.
  let deep = 0
  const token = (type: TokenType, value: unknown): void => {
    if (deep > 0 || stack.length > 3) {
      if (type === TokenType.LEFT_BRACE || type === TokenType.LEFT_BRACKET) deep++
      else if (type === TokenType.RIGHT_BRACE || type === TokenType.RIGHT_BRACKET) {
        if (deep > 0) deep--
        else stack.pop()
      }
      return
    }
    const top = stack[stack.length - 1]
    if (top?.object === true && top.expectKey) {
      if (type === TokenType.STRING) {
        top.key = value as string
        top.expectKey = false
        return
      }
      // Else `}` of an empty object; anything more the parser refuses itself.
      if (type !== TokenType.RIGHT_BRACE) return
    }
    if (type === TokenType.COMMA) {
      if (top?.object === true) top.expectKey = true
      return
    }
    if (type === TokenType.RIGHT_BRACE || type === TokenType.RIGHT_BRACKET) {
      stack.pop()
      return
    }
    const kind = KIND_OF[type]
    if (kind === undefined) return
    if (stack.length <= 2) valueAt(kind)
    if (kind === 'object') stack.push({ object: true, key: undefined, expectKey: true })
    else if (kind === 'array') stack.push({ object: false, key: undefined, expectKey: false })
  }
  return { token, seen }
}

/** What stands for the rest of a body string the reader cut: a NUL, as the tokenizer reads JSON. */
const CUT_MARK = '\\u0000'
/** The longest body string the reader keeps whatever `--max-body-chars` says (V8's string limit is 2^29 - 24). */
const MAX_KEPT_TEXT = 2 ** 28 + 8

/**
 * Cuts the body strings of a HAR's JSON text (the values of `text`:
 * `postData.text`, `content.text`) to `limit` UTF-16 units, before the
 * tokenizer builds them: a 600 MB body would otherwise pass V8's longest
 * string (`Invalid string length`) and the whole file would be refused. A cut
 * string ends in a NUL (`\u0000`), so it is longer than the journal keeps
 * and is never valid base64: the entry is marked `bodyTruncated` whatever its
 * encoding, and the pact leaves it out as it leaves out a body the journal
 * cut. Chunk boundaries may fall anywhere (inside an escape included); the
 * text between strings is only looked at, never copied char by char.
 */
const createBodyCutter = (limit: number): ((chunk: string) => string) => {
  let inString = false
  let cuttable = false
  let dropping = false
  let count = 0
  /** `type`: a backslash was read, its kind comes next; a number: hex digits of `\u` left. */
  let pendingEscape: 'none' | 'type' | number = 'none'
  let afterColon = false
  let key: string | undefined
  let pending: string | undefined
  /** The current string while it may be a short key (`text`); undefined once it cannot. */
  let short: string | undefined = ''
  return (chunk) => {
    let out = ''
    let emitFrom = dropping ? -1 : 0
    const n = chunk.length
    let quote = -2
    let slash = -2
    const nextSpecial = (from: number): number => {
      if (quote !== -1 && quote < from) quote = chunk.indexOf('"', from)
      if (slash !== -1 && slash < from) slash = chunk.indexOf('\\', from)
      const q = quote === -1 ? n : quote
      const b = slash === -1 ? n : slash
      return q < b ? q : b
    }
    const drop = (at: number): void => {
      out += `${chunk.slice(emitFrom, at)}${CUT_MARK}`
      emitFrom = -1
      dropping = true
    }
    let i = 0
    while (i < n) {
      if (!inString) {
        const c = chunk.charCodeAt(i)
        if (c === 34) {
          inString = true
          cuttable = afterColon && key === 'text'
          count = 0
          short = ''
          afterColon = false
          pending = undefined
        } else if (c === 58) {
          key = pending
          pending = undefined
          afterColon = true
        } else if (c !== 32 && c !== 10 && c !== 13 && c !== 9) {
          afterColon = false
          pending = undefined
          key = undefined
        }
        i++
        continue
      }
      if (pendingEscape === 'type') {
        pendingEscape = chunk.charCodeAt(i) === 117 ? 4 : 'none'
        i++
        continue
      }
      if (typeof pendingEscape === 'number') {
        const take = Math.min(pendingEscape, n - i)
        i += take
        pendingEscape = pendingEscape - take === 0 ? 'none' : pendingEscape - take
        continue
      }
      const special = nextSpecial(i)
      if (special > i) {
        const length = special - i
        if (short !== undefined)
          short = short.length + length > 8 ? undefined : short + chunk.slice(i, special)
        if (cuttable && !dropping) {
          if (count + length > limit) drop(i + (limit - count))
          count += length
        }
        i = special
        if (i >= n) break
      }
      if (chunk.charCodeAt(i) === 34) {
        inString = false
        if (dropping) {
          dropping = false
          emitFrom = i
        }
        pending = short
        i++
        continue
      }
      // A backslash: one UTF-16 unit, whatever its length in the text.
      short = undefined
      if (cuttable && !dropping) {
        if (count + 1 > limit) drop(i)
        count++
      }
      pendingEscape = 'type'
      i++
    }
    if (emitFrom !== -1) out += chunk.slice(emitFrom)
    return out
  }
}

const expected = (where: string, kind: Kind | undefined, wanted: string): TypeError =>
  notHar({
    path: where === '' ? [] : where.split('.'),
    message: `expected ${wanted}, received ${kind ?? 'nothing'}`,
  })

/**
 * A HAR read as a stream (issue 31 item 7): the entries of `log.entries` are
 * built one at a time, checked and handed to `onEntry` as journal entries
 * (numbered as {@link entriesFromHAR} numbers them, bodies cut at
 * `maxBodyChars` and marked `bodyTruncated`); nothing else of the file is
 * kept, so memory is one entry plus what `onEntry` keeps. `write` and `end`
 * throw the first problem as a TypeError: not JSON (cut short included), not a
 * HAR, or an entry that is not a HAR entry (named by its index).
 *
 * @example
 * const stream = createHarEntryStream((entry) => kept.push(entry), { maxBodyChars: 1024 })
 * stream.write(text)
 * stream.end()
 */
export const createHarEntryStream = (
  onEntry: (entry: JournalEntry) => void,
  options: { maxBodyChars?: number } = {},
): HarEntryStream => {
  const maxBodyChars = options.maxBodyChars ?? DEFAULT_HAR_BODY_CHARS
  const tokenizer = new Tokenizer({ stringBufferSize: 65_536 })
  // A base64 body needs 4 characters for 3 bytes: keep enough to fill the cap once decoded.
  const cut = createBodyCutter(Math.min(4 * maxBodyChars + 8, MAX_KEPT_TEXT))
  const decoder = new TextDecoder()
  const parser = new TokenParser({ paths: ['$.log.entries.*'], keepStack: false })
  const frame = createFrameWatch()
  const numbering = createHarNumbering()
  let index = 0
  let failure: TypeError | undefined
  let ended = false
  const fail = (error: unknown): void => {
    failure ??=
      error instanceof TypeError && error.message.startsWith('Failed to read the HAR:')
        ? error
        : new TypeError(
            `Failed to read the HAR: it is not JSON (${error instanceof Error ? error.message : String(error)}).`,
          )
  }
  tokenizer.onToken = (info) => {
    frame.token(info.token, info.value)
    parser.write(info)
  }
  tokenizer.onError = fail
  parser.onError = fail
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end()
  }
  parser.onEnd = () => {
    ended = true
  }
  parser.onValue = ({ value, parent }) => {
    if (!Array.isArray(parent)) throw expected('log.entries', 'object', 'array')
    const { entry, seq } = journalEntryOfHar(value, index, maxBodyChars)
    index++
    onEntry(numbering(entry, seq))
  }
  const check = (): void => {
    if (failure !== undefined) throw failure
  }
  return {
    write(chunk) {
      check()
      // Text after the HAR's end reaches the parser as tokens, which it refuses.
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
      tokenizer.write(cut(text))
      check()
    },
    end() {
      check()
      const rest = decoder.decode()
      if (rest !== '') tokenizer.write(cut(rest))
      check()
      if (!tokenizer.isEnded) tokenizer.end()
      check()
      if (!ended) fail(new Error('the file ends before the JSON does'))
      check()
      const { root, log, entries } = frame.seen
      if (root !== 'object') throw expected('', root, 'an object with log.entries')
      if (log !== 'object') throw expected('log', log, 'object')
      if (entries !== 'array') throw expected('log.entries', entries, 'array')
    },
  }
}
