/** A listener; an async one is awaited before `emit` resolves. */
export type Listener<T> = (event: T) => void | Promise<void>

/** Typed events: `on` subscribes (and returns the way to unsubscribe), `emit` calls every listener in order. */
export interface Emitter<Events> {
  on<K extends keyof Events>(type: K, listener: Listener<Events[K]>): () => void
  /** Resolves once every listener has run; rejects with the first listener's error, after all ran. */
  emit<K extends keyof Events>(type: K, event: Events[K]): Promise<void>
  /** Whether anything listens to this type (emitting can be skipped). */
  has(type: keyof Events): boolean
}

/**
 * @example
 * const events = createEmitter<{ ping: number }>()
 * const off = events.on('ping', (n) => console.log(n))
 * await events.emit('ping', 1)
 * off()
 */
export const createEmitter = <Events>(): Emitter<Events> => {
  const listeners = new Map<keyof Events, Set<Listener<never>>>()
  return {
    on(type, listener) {
      let set = listeners.get(type)
      if (set === undefined) {
        set = new Set()
        listeners.set(type, set)
      }
      set.add(listener as Listener<never>)
      return () => {
        set.delete(listener as Listener<never>)
      }
    },
    async emit(type, event) {
      const set = listeners.get(type)
      if (set === undefined || set.size === 0) return
      let failure: { error: unknown } | undefined
      // A copy: a listener may unsubscribe itself.
      for (const listener of [...set]) {
        try {
          await (listener as Listener<typeof event>)(event)
        } catch (error) {
          failure ??= { error }
        }
      }
      if (failure !== undefined) throw failure.error
    },
    has: (type) => (listeners.get(type)?.size ?? 0) > 0,
  }
}
