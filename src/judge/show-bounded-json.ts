/** Text that is emitted as it is (a bracket, a comma, a key). */
class Literal {
  constructor(readonly text: string) {}
}

const isPlainRecord = (value: object): value is Record<string, unknown> =>
  !Array.isArray(value) && !(value instanceof RegExp)

/**
 * A value as JSON (RegExps as written), cut after about `maxChars` characters,
 * without recursion: a body nested 100,000 deep, or a list of a million
 * elements, costs what is shown, never the stack (issue 31 item 6). Beyond
 * `maxChars` the text is cut; the caller marks the cut.
 *
 * @example
 * showBoundedJson({ name: /^R/ }, 120) // '{"name":"/^R/"}'
 */
export const showBoundedJson = (value: unknown, maxChars: number): string => {
  let out = ''
  const stack: unknown[] = [value]
  while (stack.length > 0 && out.length <= maxChars) {
    const item = stack.pop()
    if (item instanceof Literal) {
      out += item.text
      continue
    }
    if (item instanceof RegExp) {
      out += JSON.stringify(String(item))
      continue
    }
    if (typeof item !== 'object' || item === null) {
      // Strings, numbers, booleans, null: JSON.stringify does not recurse on them.
      out += JSON.stringify(item) ?? 'null'
      continue
    }
    const json = (item as { toJSON?: unknown }).toJSON
    if (typeof json === 'function') {
      stack.push((json as () => unknown).call(item))
      continue
    }
    // Every element or entry shows as at least one character: no more than maxChars are queued.
    const room = maxChars - out.length + 1
    if (Array.isArray(item)) {
      const shown = item.slice(0, room)
      stack.push(new Literal(shown.length < item.length ? ',…]' : ']'))
      for (let i = shown.length - 1; i >= 0; i--) {
        stack.push(shown[i] === undefined ? null : shown[i])
        if (i > 0) stack.push(new Literal(','))
      }
      out += '['
      continue
    }
    if (!isPlainRecord(item)) continue
    const entries = Object.entries(item)
      .filter(([, inner]) => inner !== undefined)
      .slice(0, room)
    stack.push(new Literal('}'))
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as [string, unknown]
      stack.push(inner)
      stack.push(new Literal(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`))
    }
    out += '{'
  }
  return out
}
