import { createHash } from 'node:crypto'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { showKey } from './mask-key.js'

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)

// Switches the sticky scenario through the control API itself; the page has no other script.
const SCRIPT = `
for (const button of document.querySelectorAll('button[data-scenario]')) {
  button.addEventListener('click', async () => {
    const res = await fetch('/__sandbox/scenario', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: button.dataset.scenario }),
    })
    if (res.ok) location.reload()
    else alert((await res.json()).message)
  })
}
document.querySelector('#reset')?.addEventListener('click', async () => {
  await fetch('/__sandbox/reset', { method: 'POST' })
  location.reload()
})`

const STYLE =
  'body{font:14px system-ui,sans-serif;margin:2rem;max-width:60rem}td,th{padding:.2rem .6rem;text-align:left}code{font-size:13px}'

const sha256 = (text: string): string =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/**
 * The page's Content-Security-Policy (contract §14): its one script and one
 * style allowed by hash, never `unsafe-inline`, so an injected tag runs nothing;
 * fetches to its own origin only; no framing.
 */
export const CONTROL_PAGE_CSP = `default-src 'none'; script-src ${sha256(SCRIPT)}; style-src ${sha256(STYLE)}; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

/**
 * The minimal page at `GET /__sandbox/`: demo keys, the scenario with buttons
 * to switch it, the clock, a few pets and the recent requests. Everything
 * that comes from users (pet names, paths, keys, header values) is escaped.
 *
 * @example
 * const html = renderControlPage(sandbox, { apiBase: 'http://127.0.0.1:4010/v1' })
 */
export const renderControlPage = (sandbox: SandboxCore, input: { apiBase: string }): string => {
  const current = sandbox.scenario.get()
  const keys = sandbox.keys
    .list()
    .map(showKey)
    .map(
      (k) =>
        `<tr><td><code>${escapeHtml(k.key)}</code></td><td>${escapeHtml(k.plan)}</td><td>${k.limits.perMinute}/min, ${k.limits.perDay}/day</td><td>${escapeHtml(k.source)}</td></tr>`,
    )
    .join('')
  const scenarios = sandbox.scenario
    .list()
    .map(
      (s) =>
        `<li><button data-scenario="${escapeHtml(s.name)}"${s.name === current ? ' disabled' : ''}>${escapeHtml(s.name)}</button> ${escapeHtml(s.description)}</li>`,
    )
    .join('')
  // Ids have no gaps unless a data file has them, so this is (about) the newest ten.
  const newest = sandbox.db.pets.list({
    limit: 10,
    afterId: Math.max(0, sandbox.db.pets.count - 10),
  })
  const pets = newest.pets
    .map(
      (p) =>
        `<tr><td>${p.id}</td><td>${escapeHtml(p.name)}</td><td>${p.categoryId}</td><td>${escapeHtml(p.status)}</td></tr>`,
    )
    .join('')
  const requests = sandbox.journal
    .list()
    .slice(-20)
    .reverse()
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.time)}</td><td>${escapeHtml(r.method)}</td><td><code>${escapeHtml(r.url)}</code></td><td>${r.status}</td><td>${escapeHtml(r.scenario)}</td><td>${escapeHtml(r.plan ?? '-')}</td></tr>`,
    )
    .join('')
  const clock = sandbox.clock
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>petstore-sandbox</title>
<style>${STYLE}</style>
</head><body>
<h1>petstore-sandbox</h1>
<p>API: <code>${escapeHtml(input.apiBase)}</code> · <a href="/__sandbox/openapi.json">OpenAPI document</a> · <button id="reset">Reset</button></p>
<h2>Clock</h2><p>${escapeHtml(new Date(clock.now()).toISOString())}${clock.frozen ? ' (frozen)' : ' (real time)'}</p>
<h2>Scenario: ${escapeHtml(current)}</h2>
<p>Per request: <code>?__scenario=NAME</code> or <code>X-Sandbox-Scenario: NAME</code>. Sticky: a button below, or <code>PUT /__sandbox/scenario</code>.</p>
<ul>${scenarios}</ul>
<h2>API keys</h2><p>Send <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<table><tr><th>Key</th><th>Plan</th><th>Limits</th><th>Source</th></tr>${keys}</table>
<h2>Newest pets (of ${sandbox.db.pets.count})</h2>
<table><tr><th>id</th><th>name</th><th>categoryId</th><th>status</th></tr>${pets}</table>
<h2>Recent requests</h2>
<table><tr><th>Time</th><th>Method</th><th>URL</th><th>Status</th><th>Scenario</th><th>Plan</th></tr>${requests}</table>
<script>${SCRIPT}</script>
</body></html>`
}
