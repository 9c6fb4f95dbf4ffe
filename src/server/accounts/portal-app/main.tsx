import { render } from 'preact'
import { Portal } from './portal.js'
import '../../dashboard/app/styles.css'
import './portal.css'

const root = document.getElementById('app')
if (root !== null) {
  // Drops the "needs JavaScript" note: Preact renders next to what is there.
  root.textContent = ''
  render(<Portal />, root)
}
