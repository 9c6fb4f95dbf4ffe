import type { KeyOption } from '../auth/key-registry.js'
import { DEMO_KEYS } from '../contract/plans.js'
import { redactCredential } from '../journal/redact-secrets.js'

/** What the start banner tells. */
export interface BannerFacts {
  /** The API's URL, e.g. `http://127.0.0.1:4010/v1`. */
  api: string
  /** The server's origin, e.g. `http://127.0.0.1:4010`. */
  origin: string
  /** The keys of the options and the config file, by key text. */
  keys: ReadonlyMap<string, KeyOption>
  scenario: string
  scenarios: readonly string[]
  dataFile: string | undefined
  store: string | undefined
  /** Upstream mode's lines (each starting with a line break), or ''. */
  upstream?: string
  /** The operations added from the `openapi` document (`--openapi`), and where it came from. */
  added?: { source: string; operations: readonly { method: string; path: string }[] } | undefined
}

/** At most this many added operations are listed; the reference page has them all. */
const ADDED_SHOWN = 12

/** The `Added:` lines: each operation as `METHOD /path`, a long list cut with how many more. */
const addedLines = (facts: BannerFacts): string => {
  if (facts.added === undefined) return ''
  const { source, operations } = facts.added
  const base = facts.api.slice(facts.origin.length)
  const shown = operations
    .slice(0, ADDED_SHOWN)
    .map((o) => `\n    ${o.method.padEnd(7)} ${base}${o.path}`)
    .join('')
  const more =
    operations.length > ADDED_SHOWN
      ? `\n    … and ${operations.length - ADDED_SHOWN} more (all at ${facts.origin}/__sandbox/docs)`
      : ''
  return `\n  Added:    ${operations.length} operation${operations.length === 1 ? '' : 's'} from ${source}${shown}${more}`
}

// A configured key is a credential, and start-up logs end up in CI output: its
// name is shown as the request log shows keys (`team…(redacted)`), with its plan.
const configuredKey = ([key, option]: [string, KeyOption]): string =>
  `    ${redactCredential(`Bearer ${key}`).slice('Bearer '.length).padEnd(20)} ${typeof option === 'string' ? option : option.plan} (configured)`

/**
 * The CLI's start banner: where the API is, its keys (the demo keys whole,
 * configured ones by name in part, with their plans), its scenarios and how
 * to switch them.
 *
 * @example
 * process.stdout.write(formatBanner({ api, origin, keys: settings.keys, … }))
 */
export const formatBanner = (facts: BannerFacts): string => {
  const keys = [
    ...Object.entries(DEMO_KEYS).map(([key, plan]) => `    ${key.padEnd(20)} ${plan}`),
    ...[...facts.keys].map(configuredKey),
  ].join('\n')
  const data = facts.dataFile === undefined ? '' : `\n  Data:     ${facts.dataFile}`
  const store =
    facts.store === undefined
      ? ''
      : `\n  Store:    ${facts.store.replace(/\/\/[^@/]*@/, '//***@')} (shared state)`
  return `petstore-sandbox serving ${facts.api}
  Try:      curl -H "Authorization: Bearer sandbox-free" ${facts.api}/pets
  Keys:
${keys}
  Scenario: ${facts.scenario} — per request ?__scenario=NAME or X-Sandbox-Scenario: NAME;
            one of ${facts.scenarios.join(', ')};
            sticky: curl -X PUT -H "Content-Type: application/json" -d '{"name":"slow"}' ${facts.origin}/__sandbox/scenario
  Control:  ${facts.origin}/__sandbox/
  Docs:     ${facts.origin}/__sandbox/docs (API reference, try-it)${addedLines(facts)}${facts.upstream ?? ''}${data}${store}
  Stop:     Ctrl+C
`
}
