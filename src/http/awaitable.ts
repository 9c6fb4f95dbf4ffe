/** A value now, or later (a shared store answers asynchronously). */
export type Awaitable<T> = T | Promise<T>

/**
 * `f(value)`, at once when the value is there (no promise, no microtask), or
 * when it settles. The in-memory sandbox answers a request in one synchronous
 * call this way; a shared store (Redis) takes the same code asynchronously
 * (decision 0039).
 *
 * @example
 * return andThen(store.get(id), (pet) => answer(pet))
 */
export const andThen = <T, R>(value: Awaitable<T>, f: (value: T) => Awaitable<R>): Awaitable<R> =>
  value instanceof Promise ? value.then(f) : f(value)

/**
 * Runs a pipeline written as a generator that yields only what is pending:
 * synchronously to its end when nothing is (what it returns is returned), and
 * from the first pending promise on asynchronously (a promise is returned).
 * A rejected promise is thrown into the generator where it yielded, so its
 * try/catch reads as an async function's would (decision 0039).
 *
 * @example
 * function* steps() { let n = count(); if (n instanceof Promise) n = (yield n) as number; return n + 1 }
 * const result = drive(steps()) // a number, or a promise of one
 */
export const drive = <T>(
  steps: Generator<Promise<unknown>, Awaitable<T>, unknown>,
): Awaitable<T> => {
  const step = (next: IteratorResult<Promise<unknown>, Awaitable<T>>): Awaitable<T> =>
    next.done === true
      ? next.value
      : next.value.then(
          (value) => step(steps.next(value)),
          (error: unknown) => step(steps.throw(error)),
        )
  return step(steps.next())
}
