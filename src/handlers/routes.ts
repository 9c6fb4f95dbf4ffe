import { createPet } from './create-pet.js'
import { deprecationHeaders, getPet } from './get-pet.js'
import { listPets } from './list-pets.js'
import type { Operation, OperationContext, OperationId } from './operation.js'

export interface Route {
  /** The path template below the base path, as the OpenAPI document writes it. */
  template: string
  pattern: RegExp
  /** Names of the pattern's capture groups, in order. */
  paramNames: readonly string[]
  methods: Readonly<Partial<Record<string, { id: OperationId; run: Operation }>>>
  /** Headers every response on this route carries (errors included). */
  headers?: (ctx: Pick<OperationContext, 'url' | 'settings'>) => Record<string, string>
}

/** The API's routes below the base path. */
export const ROUTES: readonly Route[] = [
  {
    template: '/pets',
    pattern: /^\/pets$/,
    paramNames: [],
    methods: { GET: { id: 'listPets', run: listPets }, POST: { id: 'createPet', run: createPet } },
  },
  {
    template: '/pets/{petId}',
    pattern: /^\/pets\/([^/]+)$/,
    paramNames: ['petId'],
    methods: { GET: { id: 'getPet', run: getPet } },
    headers: deprecationHeaders,
  },
]

export interface RouteMatch {
  route: Route
  params: Record<string, string>
}

/** The route for a path below the base path, or undefined. */
export const matchRoute = (path: string): RouteMatch | undefined => {
  for (const route of ROUTES) {
    const match = route.pattern.exec(path)
    if (match === null) continue
    const params: Record<string, string> = {}
    route.paramNames.forEach((name, index) => {
      params[name] = match[index + 1] ?? ''
    })
    return { route, params }
  }
  return undefined
}
