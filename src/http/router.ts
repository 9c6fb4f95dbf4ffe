/**
 * One router for the API and the control API: `{param}` path templates,
 * compiled once, matched by method. A template segment `{name}` matches one
 * non-empty path segment, passed on still percent-encoded (each route decides
 * how strictly it reads its parameters). A segment may also put literal text
 * around parameters (`{Sid}.json`, `{section}.{format}`, an OpenAPI
 * document's paths): each parameter then ends at the first occurrence of the
 * text after it. An empty last segment is a trailing slash (`/services/`).
 */
export interface RouteMatch<T> {
  value: T
  /** The template the path matched, e.g. `/pets/{petId}`. */
  template: string
  params: Record<string, string>
}

export type RouterResult<T> =
  /** A route and method matched. */
  | ({ kind: 'found' } & RouteMatch<T>)
  /** The path matched a template, but not with this method: answer 405 with `allow`. */
  | { kind: 'method-not-allowed'; template: string; allow: string[] }
  /** No template matched the path: answer 404. */
  | { kind: 'not-found' }

export interface Router<T> {
  /** Adds a route; throws for a template it cannot route (see `templateProblem`). */
  add(method: string, template: string, value: T): Router<T>
  match(method: string, path: string): RouterResult<T>
  /** The templates in the order they were added, with their methods. */
  routes(): { template: string; methods: string[] }[]
}

/** A segment with literal text around its parameters (`{Sid}.json`, `{section}.{format}`). */
interface MixedSegment {
  /** Which capture group of the route's pattern holds the segment. */
  group: number
  /** Literal text and parameter names, alternating from a literal ('' when it starts with a parameter). */
  literals: string[]
  names: string[]
}

interface CompiledRoute<T> {
  template: string
  pattern: RegExp
  paramNames: string[]
  /** Segments with literal text around parameters: split after the pattern matched; else undefined. */
  mixed: MixedSegment[] | undefined
  methods: Map<string, T>
  /** A route without parameters answers every match of a method with the same result. */
  found: Map<string, RouterResult<T>>
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>

const SEGMENT = /^(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|[A-Za-z0-9._~!$&'()*+,;=:@-]+)$/
const LITERAL = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]*$/
const PARAM = /\{([^{}/]*)\}/g

/**
 * Why a template cannot be routed, or undefined when it can: every segment a
 * literal, a `{param}` (any name without `/`, `{`, `}`), or literal text
 * around parameters, with text between any two of them; an empty last
 * segment is a trailing slash.
 */
export const templateProblem = (template: string): string | undefined => {
  try {
    compile(template)
    return undefined
  } catch (error) {
    return error instanceof Error
      ? error.message.replace(/^Failed to add route "[^"]*": /, '')
      : 'cannot be routed'
  }
}

const escapeLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const compile = (
  template: string,
): { pattern: RegExp; paramNames: string[]; mixed: MixedSegment[] | undefined } => {
  if (template === '/') return { pattern: /^\/$/, paramNames: [], mixed: undefined }
  const refuse = (why: string): never => {
    throw new TypeError(`Failed to add route "${template}": ${why}.`)
  }
  if (!template.startsWith('/')) refuse('a template starts with "/"')
  const paramNames: string[] = []
  let mixed: MixedSegment[] | undefined
  const segments = template.slice(1).split('/')
  const parts = segments.map((segment, index) => {
    const match = SEGMENT.exec(segment)
    if (match !== null) {
      if (match[1] !== undefined) {
        paramNames.push(match[1])
        return '([^/]+)'
      }
      return escapeLiteral(segment)
    }
    // A trailing slash: the path ends in "/".
    if (segment === '' && index === segments.length - 1 && index > 0) return ''
    const names = [...segment.matchAll(PARAM)].map((m) => m[1] ?? '')
    const literals = segment.split(PARAM).filter((_, i) => i % 2 === 0)
    if (names.some((name) => name === '')) refuse(`"${segment}" has a parameter without a name`)
    if (!literals.every((literal) => LITERAL.test(literal)))
      refuse(`"${segment}" is neither a literal segment nor {param}`)
    if (names.length === 0) return escapeLiteral(segment)
    if (literals.slice(1, -1).some((literal) => literal === ''))
      refuse(`"${segment}" has two parameters with nothing between them`)
    if (names.length === 1 && literals.every((literal) => literal === '')) {
      paramNames.push(names[0] as string)
      return '([^/]+)'
    }
    mixed ??= []
    mixed.push({ group: paramNames.length, literals, names })
    paramNames.push('')
    return '([^/]+)'
  })
  return { pattern: new RegExp(`^/${parts.join('/')}$`), paramNames, mixed }
}

/**
 * A mixed segment's parameters: each ends at the first occurrence of the text
 * after it (the last at the segment's end), and none is empty. Linear in the
 * segment's length; undefined when the segment does not fit.
 */
const splitMixed = (segment: MixedSegment, text: string, params: [string, string][]): boolean => {
  const { literals, names } = segment
  const head = literals[0] ?? ''
  if (!text.startsWith(head)) return false
  let at = head.length
  for (const [index, name] of names.entries()) {
    const next = literals[index + 1] ?? ''
    const last = index === names.length - 1
    let end: number
    if (last) {
      if (!text.endsWith(next)) return false
      end = text.length - next.length
    } else end = text.indexOf(next, at + 1)
    if (end === -1 || end <= at) return false
    params.push([name, text.slice(at, end)])
    at = end + next.length
  }
  return true
}

/**
 * The parameters of a route of whole `{param}` segments, defined in a loop
 * (entries and `Object.fromEntries` per request were a third of a get's
 * routing, decision 0064); defined, not assigned, so one named `__proto__`
 * is a plain key like any other.
 */
const plainParams = (names: readonly string[], found: RegExpExecArray): Record<string, string> => {
  const params: Record<string, string> = {}
  for (let index = 0; index < names.length; index++)
    Object.defineProperty(params, names[index] as string, {
      value: found[index + 1] ?? '',
      enumerable: true,
      writable: true,
      configurable: true,
    })
  return params
}

/** The parameters of a route with mixed segments, or undefined when a segment does not fit. */
const mixedParams = <T>(
  route: CompiledRoute<T>,
  found: RegExpExecArray,
): Record<string, string> | undefined => {
  // Entries, not assignments: a parameter named __proto__ stays a plain key.
  const params: [string, string][] = []
  for (const [index, name] of route.paramNames.entries())
    if (name !== '') params.push([name, found[index + 1] ?? ''])
  for (const segment of route.mixed ?? [])
    if (!splitMixed(segment, found[segment.group + 1] ?? '', params)) return undefined
  return Object.fromEntries(params)
}

/**
 * @example
 * const router = createRouter<string>().add('GET', '/pets/{petId}', 'getPet')
 * router.match('GET', '/pets/7') // { kind: 'found', value: 'getPet', params: { petId: '7' }, … }
 * router.match('POST', '/pets/7') // { kind: 'method-not-allowed', allow: ['GET'], … }
 */
export const createRouter = <T>(): Router<T> => {
  const compiled: CompiledRoute<T>[] = []
  const router: Router<T> = {
    add(method, template, value) {
      let route = compiled.find((r) => r.template === template)
      if (route === undefined) {
        route = { template, ...compile(template), methods: new Map(), found: new Map() }
        compiled.push(route)
      }
      if (route.methods.has(method))
        throw new TypeError(`Failed to add route ${method} ${template}: it exists already.`)
      route.methods.set(method, value)
      if (route.paramNames.length === 0)
        route.found.set(method, { kind: 'found', value, template, params: NO_PARAMS })
      return router
    },
    match(method, path) {
      let other: CompiledRoute<T>[] | undefined
      for (const route of compiled) {
        const found = route.pattern.exec(path)
        if (found === null) continue
        let split: Record<string, string> | undefined
        if (route.mixed !== undefined) {
          split = mixedParams(route, found)
          if (split === undefined) continue
        }
        // Made once per route and method when there are no parameters (the hot path's lists).
        const fixed = route.found.get(method)
        if (fixed !== undefined) return fixed
        const value = route.methods.get(method)
        if (value === undefined) {
          // Another template of the same shape (`/pets/{id}` next to `/pets/{petId}`,
          // decision 0042) may have the method: look on, 405 only when none has it.
          other ??= []
          other.push(route)
          continue
        }
        const params = split ?? plainParams(route.paramNames, found)
        return { kind: 'found', value, template: route.template, params }
      }
      if (other === undefined) return { kind: 'not-found' }
      return {
        kind: 'method-not-allowed',
        template: (other[0] as CompiledRoute<T>).template,
        allow: [...new Set(other.flatMap((route) => [...route.methods.keys()]))],
      }
    },
    routes: () => compiled.map((r) => ({ template: r.template, methods: [...r.methods.keys()] })),
  }
  return router
}
