import { render } from 'preact'
import { App } from './app.js'
import './styles.css'

const root = document.getElementById('app')
if (root !== null) {
  // Drops the "needs JavaScript" note: Preact renders next to what is there.
  root.textContent = ''
  render(<App />, root)
}
