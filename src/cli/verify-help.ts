/** The text of `petstore-sandbox verify --help`. */
export const VERIFY_HELP = `Usage: petstore-sandbox verify --target URL --key KEY [options]

Checks a Pet Store deployment (staging, production, this sandbox) against the spec, and
shows where it answers unlike the sandbox where the spec is silent (contract §16).
Read-only and at most 150 requests unless told otherwise; it stops at the first 429 and
never tries to provoke a ban; secrets are redacted in every report.

Options:
      --target URL           the deployment's base URL, ending with /v1
                             (or PETSTORE_SANDBOX_VERIFY_TARGET)
      --key KEY              an API key of the deployment (or PETSTORE_SANDBOX_VERIFY_KEY,
                             which keeps it out of the process list)
      --allow-writes         also check createPet: creates at most 5 pets, named
                             "petstore-sandbox verify <time> #n"
      --max-requests N       the most requests to send (default 150)
      --timeout T            the longest one request may take (default 10s; 500ms, 30s)
      --max-wait T           the most to wait for the key's quota to reset, in all
                             (default 65s; 0 never waits); past it verify stops
      --max-body BYTES       the largest answer body read (default 1048576); a larger
                             one fails its check and stops the run
      --report json FILE     write the report as JSON: checks [{ id, kind, pass, observed,
                             expected, message }] (repeatable with another format)
      --report junit FILE    write the report as JUnit XML for CI
      --emit-config FILE     write the config (for --config) that makes the sandbox answer
                             like the target on every gap
  -c, --config FILE          the sandbox's config to compare with (default: its defaults)
      --openapi FILE         an OpenAPI document (YAML or JSON) of operations the target
                             adds: each GET is called (with --allow-writes, each write is
                             sent a body missing a field and one of a wrong type) and
                             every answer is checked against the document
  -h, --help                 this help

Exit codes: 0 every spec check passed, 1 a spec check failed or the run stopped early
(a 429, no answer, the request budget), 2 bad arguments. Gap differences do not fail it.
Check ids and an example report: docs/verify.md.
`
