import { useState } from 'preact/hooks'
import { ControlError } from './api.js'

/** Runs a control call, tracking "busy" and the last error's message for display. */
export const useAction = () => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true)
    setError(undefined)
    try {
      await action()
      return true
    } catch (caught) {
      setError(
        caught instanceof ControlError ? `${caught.code}: ${caught.message}` : String(caught),
      )
      return false
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, run }
}

/** The error line of a panel, announced when it appears. */
export const ErrorLine = (props: { error: string | undefined }) =>
  props.error === undefined ? null : (
    <p class="error" role="alert">
      {props.error}
    </p>
  )
