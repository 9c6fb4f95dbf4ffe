interface Server {
  url: string
  description?: string
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A URL's path, or undefined for a URL that does not parse (`http://[::1`). */
const pathOf = (url: string, origin: string): string | undefined => {
  try {
    return new URL(url, origin).pathname.replace(/\/$/, '')
  } catch {
    return undefined
  }
}

/**
 * A `servers` list with each URL's origin replaced by `origin` (its path kept). A URL
 * that does not parse is left out (one operation's typo must not blank the page, issue 37
 * item 17); `[]` when none is left, and the operation falls back to the document's servers.
 */
const moved = (servers: unknown, origin: string): Server[] | undefined => {
  if (!Array.isArray(servers)) return undefined
  return servers.filter(isRecord).flatMap((server) => {
    const path = pathOf(typeof server.url === 'string' ? server.url : '/', origin)
    return path === undefined ? [] : [{ ...server, url: `${origin}${path}` }]
  })
}

/** The sandbox's own selectors: the try-it bar sets them, so Swagger UI must not fill in their examples. */
const isSelector = (name: unknown): boolean =>
  typeof name === 'string' && (name.startsWith('__') || /^x-sandbox-/i.test(name))

/**
 * A parameter list with the examples of the selectors and of every optional parameter dropped
 * ($refs are left to the components): Swagger UI sends an example as the value, and an optional
 * parameter's example (a `cursor`, a `status`) would change what try-it asks. A required one
 * (`petId`) keeps its example as a starting value.
 */
const withoutSelectorExamples = (parameters: unknown): unknown => {
  if (!Array.isArray(parameters)) return parameters
  return parameters.map((parameter) => {
    if (!isRecord(parameter)) return parameter
    if (!isSelector(parameter.name)) {
      if (parameter.required === true) return parameter
      const { example: _example, examples: _examples, ...optional } = parameter
      return optional
    }
    const { example: _example, examples: _examples, ...rest } = parameter
    const note = 'On this page the try-it bar above sets it; fill it in here to override.'
    return {
      ...rest,
      description: typeof rest.description === 'string' ? `${rest.description}\n\n${note}` : note,
    }
  })
}

/**
 * A copy of an OpenAPI document for try-it against this server. Its servers
 * are this server: the document's own (`http://127.0.0.1:4010/v1`) become `origin` + the API's
 * base path, and the control API's per-path servers keep their paths on
 * `origin`. So try-it reaches the server that serves the page, whatever port
 * or name it was opened with. The sandbox's selectors (`__scenario`,
 * `__delay`, `__session`, `X-Sandbox-*`) lose their examples, which Swagger
 * UI would otherwise send as values: the bar above the page chooses them.
 *
 * @example
 * prepareForTryIt(doc, 'http://localhost:5000', '/v1').servers // [{ url: 'http://localhost:5000/v1', … }]
 */
export const prepareForTryIt = (
  document: Record<string, unknown>,
  origin: string,
  basePath: string,
): Record<string, unknown> => {
  // Maps, not records indexed by the document's names (a path or method named __proto__).
  const paths = new Map<string, unknown>()
  for (const [path, item] of Object.entries(isRecord(document.paths) ? document.paths : {})) {
    if (!isRecord(item)) continue
    const copy = new Map<string, unknown>(Object.entries(item))
    const own = moved(item.servers, origin)
    if (own?.length === 0) copy.delete('servers')
    else if (own !== undefined) copy.set('servers', own)
    if (item.parameters !== undefined)
      copy.set('parameters', withoutSelectorExamples(item.parameters))
    for (const [method, operation] of Object.entries(item)) {
      if (!isRecord(operation) || method === 'parameters' || method === 'servers') continue
      const changed: Record<string, unknown> = { ...operation }
      const servers = moved(operation.servers, origin)
      if (servers?.length === 0) delete changed.servers
      else if (servers !== undefined) changed.servers = servers
      if (operation.parameters !== undefined)
        changed.parameters = withoutSelectorExamples(operation.parameters)
      copy.set(method, changed)
    }
    paths.set(path, Object.fromEntries(copy))
  }
  const components = isRecord(document.components) ? document.components : undefined
  const parameters = isRecord(components?.parameters) ? components.parameters : undefined
  return {
    ...document,
    ...(parameters === undefined
      ? {}
      : {
          components: {
            ...components,
            parameters: Object.fromEntries(
              Object.entries(parameters).map(([name, parameter]) => [
                name,
                (withoutSelectorExamples([parameter]) as unknown[])[0],
              ]),
            ),
          },
        }),
    servers: [
      { url: `${origin}${basePath.replace(/\/$/, '')}`, description: 'This sandbox server' },
    ],
    paths: Object.fromEntries(paths),
  }
}
