import { createParser } from 'eventsource-parser'
import { ControlError, controlHeaders } from './api.js'

export type StreamState = 'connecting' | 'live' | 'offline'

/**
 * Reads the server's event stream with fetch, not EventSource, so that the
 * admin token goes in a header (docs/decisions/0011-dashboard-event-stream.md).
 * Reconnects with a growing pause; a 403 stops and reports (token needed).
 * Returns a function that disconnects.
 *
 * @example
 * const stop = connectStream({ onEvent: (type, data) => …, onState: setState, onDenied })
 */
export const connectStream = (handlers: {
  onEvent(type: string, data: unknown): void
  onState(state: StreamState): void
  onDenied(error: ControlError): void
}): (() => void) => {
  let stopped = false
  let controller: AbortController | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let pause = 500

  const run = async (): Promise<void> => {
    if (stopped) return
    handlers.onState('connecting')
    controller = new AbortController()
    try {
      const response = await fetch('/__sandbox/events', {
        headers: { ...controlHeaders(), Accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      })
      if (response.status === 403) {
        const body = (await response.json().catch(() => ({}))) as { message?: string }
        handlers.onState('offline')
        handlers.onDenied(new ControlError('forbidden', body.message ?? 'Forbidden.', 403))
        return
      }
      if (!response.ok || response.body === null) throw new Error(String(response.status))
      handlers.onState('live')
      pause = 500
      const parser = createParser({
        onEvent(event) {
          try {
            handlers.onEvent(event.event ?? 'message', JSON.parse(event.data))
          } catch {}
        },
      })
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        parser.feed(value)
      }
    } catch {
      if (stopped) return
    }
    if (stopped) return
    handlers.onState('offline')
    timer = setTimeout(run, pause)
    pause = Math.min(pause * 2, 10_000)
  }

  void run()
  return () => {
    stopped = true
    if (timer !== undefined) clearTimeout(timer)
    controller?.abort()
  }
}
