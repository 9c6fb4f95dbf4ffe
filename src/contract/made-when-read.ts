/**
 * An object whose every property is made by its maker the first time it is
 * read, then kept: what a start never reads, it never makes (zod builds a
 * schema at some cost; issue 20, start-up).
 *
 * @example
 * const schemas = madeWhenRead({ port: () => z.number() })
 * schemas.port // made now; the same object on every later read
 */
export const madeWhenRead = <T extends Record<string, () => unknown>>(
  makers: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } => {
  const made = {} as { [K in keyof T]: ReturnType<T[K]> }
  for (const name of Object.keys(makers) as (keyof T & string)[])
    Object.defineProperty(made, name, {
      enumerable: true,
      configurable: true,
      get() {
        const value = makers[name]?.()
        Object.defineProperty(made, name, { value, enumerable: true })
        return value
      },
    })
  return made
}
