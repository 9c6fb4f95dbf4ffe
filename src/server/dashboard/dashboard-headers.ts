/**
 * The dashboard's Content-Security-Policy (contract §14): scripts, styles and
 * fetches from the server's own origin only, nothing inline, no framing.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** Headers on every answer of the dashboard's routes: the page, its files, its data. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
}
