import { pathToFileURL } from 'node:url'

export interface TeamKeysOptions {
  /** The shared sandbox, e.g. `http://sandbox.internal:4010`. */
  origin: string
  /** One session per person (or CI job): 1-64 characters of A-Z a-z 0-9 . _ - */
  people: readonly string[]
  /** The plan of every key (default `pro`). */
  plan?: string
  /** The server's `--admin-token`, when it has one (needed from off the machine). */
  adminToken?: string | undefined
}

/**
 * Creates one run-time key per person on a shared sandbox, each bound to a
 * session of that person's name (`POST /__sandbox/keys {"plan","session"}`).
 * A request with the key always lands in its session, so nobody needs to send
 * `X-Sandbox-Session`: the key alone keeps each person's pets, scenario,
 * clock and quota apart.
 *
 * @example
 * const keys = await createTeamKeys({ origin: 'http://127.0.0.1:4010', people: ['alice', 'bob'] })
 * // { alice: 'sk_sandbox_…', bob: 'sk_sandbox_…' }
 */
export const createTeamKeys = async (options: TeamKeysOptions): Promise<Record<string, string>> => {
  const keys: Record<string, string> = {}
  for (const person of options.people) {
    const response = await fetch(`${options.origin}/__sandbox/keys`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.adminToken === undefined
          ? {}
          : { authorization: `Bearer ${options.adminToken}` }),
      },
      body: JSON.stringify({ plan: options.plan ?? 'pro', session: person }),
    })
    const body = (await response.json()) as { key?: string; message?: string }
    if (response.status !== 201 || body.key === undefined) {
      throw new Error(
        `Failed to create a key for "${person}": ${response.status} ${body.message ?? ''}`,
      )
    }
    keys[person] = body.key
  }
  return keys
}

// npx tsx examples/team-keys/create-team-keys.ts http://127.0.0.1:4010 alice bob
// (env PETSTORE_SANDBOX_ADMIN_TOKEN when the server has --admin-token)
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [origin, ...people] = process.argv.slice(2)
  if (origin === undefined || people.length === 0) {
    console.error('Usage: create-team-keys.ts ORIGIN PERSON...')
    process.exit(2)
  }
  const keys = await createTeamKeys({
    origin,
    people,
    adminToken: process.env.PETSTORE_SANDBOX_ADMIN_TOKEN,
  })
  for (const [person, key] of Object.entries(keys)) console.log(`${person}\t${key}`)
}
