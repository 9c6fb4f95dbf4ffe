/** A scenario as the help lists it. */
export interface HelpScenario {
  name: string
  description: string
}

// One line per scenario: the description up to a word boundary that fits.
const shorten = (text: string, max: number): string => {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[,;:.]$/, '')}…`
}

/**
 * The text of `petstore-sandbox --help`, listing the scenarios of the
 * registry it is given (the built-in ones), so the help never drifts from them.
 *
 * @example
 * process.stdout.write(cliHelp(BUILT_IN_SCENARIOS))
 */
export const cliHelp = (scenarios: readonly HelpScenario[]): string => {
  const width = Math.max(...scenarios.map((s) => s.name.length))
  const list = scenarios
    .map((s) => `  ${s.name.padEnd(width)}  ${shorten(s.description, 92 - width)}`)
    .join('\n')
  return `Usage: petstore-sandbox [options]
       petstore-sandbox init [FILE]   write a commented starter config (default petstore-sandbox.config.mjs)
       petstore-sandbox verify --target URL --key KEY [options]   (see verify --help)
       petstore-sandbox report --from FILE.har   judge a client's recording (see report --help)
       petstore-sandbox pact --from FILE.har     a Pact v4 file from a recording (see pact --help)

Serves a sandbox of the Pet Store API on http://127.0.0.1:4010/v1. \`verify\` checks a real
deployment against the spec and writes the config that makes the sandbox answer like it.

Options:
  -c, --config FILE      read settings from FILE: JSON, or a .js/.mjs module's default export
                         (with your own handlers and scenarios; .ts/.mts where Node runs TypeScript)
  -p, --port N           port (default 4010; 0 picks a free port)
      --host HOST        interface to listen on (default 127.0.0.1; 0.0.0.0 for every one)
      --seed N           faker seed of the seeded pets (same seed, same pets)
      --pets N           how many pets to seed (default 25)
      --scenario NAME    sticky scenario at start and after reset (default "default")
      --timeline FILE    sticky timeline at start and after reset (JSON: [{"scenario","forMs"}, ...])
      --key NAME=PLAN    add a key (repeatable); NAME=enterprise:PER_MIN:PER_DAY for custom limits;
                         NAME=PLAN:SCENARIO for a key whose requests get that scenario
      --data FILE        keep the pets (and --openapi's records) in FILE (created when
                         absent; written on every change)
      --openapi FILE     add the operations of an OpenAPI 3.0/3.1 document (YAML or JSON),
                         its paths below the base path (docs/your-endpoints.md)
      --admin-token T    open the control API to callers sending "Authorization: Bearer T"
                         (env PETSTORE_SANDBOX_ADMIN_TOKEN keeps it out of the process list)
      --accounts MODE    open or invite: client developers sign up at /portal, make their
                         own keys and get a sandbox each (needs --admin-token;
                         docs/accounts.md)
      --allowed-host H   a Host name the control API answers besides localhost and
                         loopback addresses (repeatable; guards against DNS rebinding)
      --base-path PATH   where the API lives (default /v1)
      --session-ttl T    drop a session idle this long (default 1h; 90, 90s, 30m, 2h)
      --max-sessions N   most sessions alive, default included (default 1000; past it the
                         least recently used of the caller holding the most is dropped)
      --journal-max-entries N  requests the journals of every session keep together
                         (default 10000; the oldest of any session go first; 0 keeps none)
      --journal-max-bytes N    about how many bytes they keep together (default 33554432,
                         32 MiB; each entry at most 100 header lines and 8 KiB of each body)
      --store URL        keep the state in Redis, shared by every instance started with it
                         (env PETSTORE_SANDBOX_STORE; e.g. redis://127.0.0.1:6379/0)
      --store-prefix P   prefix of the Redis keys (default "petstore-sandbox:")
      --upstream URL     forward API requests to a real deployment (its base URL, e.g.
                         https://staging.example.test/v1) and check every answer (docs/upstream.md)
      --upstream-key K   send "Authorization: Bearer K" upstream instead of the client's
                         (clients then need a sandbox key; env keeps K out of the process list)
      --upstream-timeout T  504 upstream_timeout after T (default 10s; 500ms, 30s)
      --upstream-max-body S  502 upstream_unavailable for an answer body past S, raw or
                         decompressed (default 10MiB; 512KiB, up to 256MiB)
      --strict-upstream  answer 502 upstream_contract_violation instead of a violating answer
      --local-limits     count forwarded requests against the sandbox's quotas too
      --record FILE      write forwarded traffic to FILE as HAR 1.2 (secrets redacted)
      --replay FILE      answer from a HAR recording (the sandbox's, or a browser's export)
      --replay-fallback sandbox  the sandbox answers what the recording lacks (default:
                         404 replay_miss)
      --instance NAME    this instance's name in the journal and the dashboard's feed
                         (default with --store: host:pid)

Fidelity (contract §16; \`petstore-sandbox verify --emit-config\` writes them for a deployment):
      --limit-out-of-range reject|clamp          limit outside 1-100: 400 (default) or clamped
      --unknown-status-filter reject|ignore|empty  status filter not a PetStatus (default reject)
      --default-status STATUS                   status of a pet created without one (available)
      --name-max-length N                       longest pet name, 1-10000 (default 100)
      --unknown-fields ignore|reject            unknown NewPet fields (default ignore)
      --pagination cursor|offset|none           how listPets pages (default cursor)
      --total-count-header NAME|false           the total-count header (default X-Total-Count)
      --max-body-bytes N                        largest request body, 1024-10485760 (65536)
  (errorCodes, a map of codes, only in the config file)

  -q, --quiet            no request log
  -h, --help             this help
  -v, --version          the version

Every flag has an environment variable: PETSTORE_SANDBOX_<FLAG> (PETSTORE_SANDBOX_PORT,
PETSTORE_SANDBOX_BASE_PATH, PETSTORE_SANDBOX_KEY="a=pro,b=free", PETSTORE_SANDBOX_QUIET=1,
PETSTORE_SANDBOX_CONFIG=FILE …); PORT works too. A flag wins over its environment variable,
which wins over the config file, which wins over the default.

Scenarios:
${list}

Control API: http://127.0.0.1:4010/__sandbox/ (the routes: docs/control-api.md).
Exit codes: 0 stopped by SIGINT/SIGTERM, 1 failed to start, 2 bad arguments or config file.
`
}
