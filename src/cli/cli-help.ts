/** The text of `petstore-sandbox --help`. */
export const CLI_HELP = `Usage: petstore-sandbox [options]

Serves a sandbox of the Pet Store API on http://127.0.0.1:4010/v1.

Options:
  -p, --port N           port (env PORT; default 4010; 0 picks a free port)
      --host HOST        interface to listen on (default 127.0.0.1; 0.0.0.0 for every one)
      --seed N           faker seed of the seeded pets (same seed, same pets)
      --pets N           how many pets to seed (default 25)
      --scenario NAME    sticky scenario at start and after reset (default "default")
      --data FILE        keep the pets in FILE (created when absent; written on every change)
      --admin-token T    open the control API to callers sending "Authorization: Bearer T"
                         (env PETSTORE_SANDBOX_ADMIN_TOKEN keeps it out of the process list)
      --allowed-host H   a Host name the control API answers besides localhost and
                         loopback addresses (repeatable; guards against DNS rebinding)
      --base-path PATH   where the API lives (default /v1)
      --session-ttl T    drop a session idle this long (default 1h; 90, 90s, 30m, 2h)
      --max-sessions N   most sessions alive, default included (default 1000; the least
                         recently used is dropped past it)
      --store URL        keep the state in Redis, shared by every instance started with it
                         (env PETSTORE_SANDBOX_STORE; e.g. redis://127.0.0.1:6379/0)
      --store-prefix P   prefix of the Redis keys (default "petstore-sandbox:")
  -q, --quiet            no request log
  -h, --help             this help
  -v, --version          the version

Control API: http://127.0.0.1:4010/__sandbox/ (see the README).
Exit codes: 0 stopped by SIGINT/SIGTERM, 1 failed to start, 2 bad arguments.
`
