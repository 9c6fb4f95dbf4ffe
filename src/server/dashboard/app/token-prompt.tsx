import { useState } from 'preact/hooks'
import { saveToken } from './api.js'

/** Asks for the admin token; keeps it in sessionStorage (this tab) only. */
export const TokenPrompt = (props: { message: string; onSaved(): void }) => {
  const [token, setToken] = useState('')
  return (
    <main class="token-page">
      <form
        class="panel token"
        aria-labelledby="token-title"
        onSubmit={(e) => {
          e.preventDefault()
          if (token.trim() === '') return
          saveToken(token.trim())
          setToken('')
          props.onSaved()
        }}
      >
        <h1 id="token-title">Admin token needed</h1>
        <p>
          This server was started with <code>--admin-token</code>. Enter the token to open the
          dashboard. It stays in this tab only (sessionStorage) and is sent as{' '}
          <code>Authorization: Bearer</code> on every call.
        </p>
        <p class="muted small" role="status">
          {props.message}
        </p>
        <label>
          Admin token
          <input
            type="password"
            autoComplete="off"
            spellcheck={false}
            required
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Open the dashboard</button>
      </form>
    </main>
  )
}
