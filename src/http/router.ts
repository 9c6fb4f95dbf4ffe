/**
 * One router for the API and the control API: `{param}` path templates,
 * compiled once, matched by method. A template segment `{name}` matches one
 * non-empty path segment, passed on still percent-encoded (each route decides
 * how strictly it reads its parameters).
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
  /** Adds a route; throws for a template that is not `/segment/{param}/…`. */
  add(method: string, template: string, value: T): Router<T>
  match(method: string, path: string): RouterResult<T>
  /** The templates in the order they were added, with their methods. */
  routes(): { template: string; methods: string[] }[]
}

interface CompiledRoute<T> {
  template: string
  pattern: RegExp
  paramNames: string[]
  methods: Map<string, T>
  /** A route without parameters answers every match of a method with the same result. */
  found: Map<string, RouterResult<T>>
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>

const SEGMENT = /^(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|[A-Za-z0-9._~!$&'()*+,;=:@-]+)$/

const compile = (template: string): { pattern: RegExp; paramNames: string[] } => {
  if (template === '/') return { pattern: /^\/$/, paramNames: [] }
  if (!template.startsWith('/'))
    throw new TypeError(`Failed to add route "${template}": a template starts with "/".`)
  const paramNames: string[] = []
  const parts = template
    .slice(1)
    .split('/')
    .map((segment) => {
      const match = SEGMENT.exec(segment)
      if (match === null)
        throw new TypeError(
          `Failed to add route "${template}": "${segment}" is neither a literal segment nor {param}.`,
        )
      if (match[1] !== undefined) {
        paramNames.push(match[1])
        return '([^/]+)'
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
  return { pattern: new RegExp(`^/${parts.join('/')}$`), paramNames }
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
        const params: Record<string, string> = Object.fromEntries(
          route.paramNames.map((name, index) => [name, found[index + 1] ?? '']),
        )
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
