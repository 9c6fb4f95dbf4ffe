// The worst client of bench/worst-client.ts, in a process of its own (so the bench's own
// process does not compete with it for the event loop). Argument: JSON
// { port, seconds, maxRequests, connections }. Prints one JSON line:
// { sent, errors, statuses, kinds }. Loopback only: every source address is 127.x.y.z.
import { Agent, request } from 'node:http'

const { port, seconds, maxRequests, connections } = JSON.parse(process.argv[2])
const DEMO_KEYS = ['sandbox-free', 'sandbox-pro', 'sandbox-business', 'sandbox-enterprise']
// A large head just under the server's limits: 90 header lines of ~150 bytes (~14 KB of
// the 16 KiB a head may have, and 100 lines), so every journal entry is as big as it gets.
const BIG_HEAD = {}
for (let i = 0; i < 90; i++) BIG_HEAD[`x-worst-${i}`] = `${i}-`.padEnd(140, 'w')
// A 60 KB body the API refuses (400 malformed_json): the journal copies its first 8 KiB.
const BAD_BODY = `{"name": "${'b'.repeat(60_000)}`

const statuses = {}
const kinds = {}
let sent = 0
let errors = 0
const end = performance.now() + seconds * 1000
const pick = (n) => Math.floor(Math.random() * n)
// 60,000 source addresses: 127.1.0.1 to 127.1.234.96.
const address = () => {
  const n = pick(60_000)
  return `127.${1 + (n >> 16)}.${(n >> 8) & 255}.${n & 255 || 1}`
}
// Demo-key traffic over keep-alive connections from 200 addresses of their own (127.3.0.x),
// so it arrives as fast as the server answers; keyless traffic opens a connection per request.
const AGENTS = Array.from(
  { length: 200 },
  (_, i) => new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.3.0.${i + 1}` }),
)

const one = () =>
  new Promise((resolve) => {
    const r = Math.random()
    let kind
    let method = 'GET'
    let path
    let headers
    let body
    if (r < 0.4) {
      // A demo key (public) naming one of 5,000 sessions: past the 1,000 cap, so sessions
      // are opened and evicted all the time, by callers on many addresses.
      kind = 'demo-get'
      path = `/v1/pets?limit=100&__session=worst-${pick(5_000)}`
      headers = { ...BIG_HEAD, authorization: `Bearer ${DEMO_KEYS[pick(4)]}` }
    } else if (r < 0.55) {
      kind = 'demo-bad-post'
      method = 'POST'
      path = `/v1/pets?__session=worst-${pick(5_000)}`
      headers = {
        ...BIG_HEAD,
        authorization: `Bearer ${DEMO_KEYS[pick(4)]}`,
        'content-type': 'application/json',
      }
      body = BAD_BODY
    } else if (r < 0.9) {
      // No key, from one of 60,000 addresses: anonymous buckets, 401s, 429s.
      kind = 'keyless'
      path = `/v1/pets?limit=100&__session=keyless-${pick(100_000)}`
      headers = { ...BIG_HEAD }
    } else {
      kind = 'wrong-key'
      path = `/v1/pets?__session=wrong-${pick(100_000)}`
      headers = { ...BIG_HEAD, authorization: `Bearer wrong-${pick(1e9)}` }
    }
    const via = kind.startsWith('demo')
      ? { agent: AGENTS[pick(AGENTS.length)] }
      : { agent: false, localAddress: address() }
    const req = request({ host: '127.0.0.1', port, method, path, headers, ...via }, (res) => {
      res.resume()
      res.on('end', () => {
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
        kinds[kind] = (kinds[kind] ?? 0) + 1
        resolve()
      })
    })
    req.on('error', () => {
      errors++
      resolve()
    })
    req.end(body)
  })

await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < end && sent < maxRequests) {
      sent++
      await one()
    }
  }),
)
for (const agent of AGENTS) agent.destroy()
process.stdout.write(`${JSON.stringify({ sent, errors, statuses, kinds })}\n`)
