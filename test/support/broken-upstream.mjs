// A deliberately broken Pet Store deployment, run as a process of its own by
// the upstream-mode tests (issue 19): what upstream mode must catch. It keeps
// a journal of what it received (GET /__requests) so tests can see what was
// forwarded. With --hang it reads every request and never answers.
import { createServer } from 'node:http'

const hang = process.argv.includes('--hang')
const received = []
const RATE = {
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '59',
  'X-RateLimit-Reset': '4102444800',
}
const GET_PET = { Deprecation: '@1767225600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }
const PETS = [
  { id: 1, name: 'Broken Bo', categoryId: 1, status: 'available' },
  { id: 2, name: 'Broken Bee', categoryId: 2, status: 'sold' },
]

const send = (res, status, headers, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  res.end(text)
}

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://broken.invalid')
    if (url.pathname === '/__requests') return send(res, 200, {}, received)
    received.push({
      method: req.method,
      url: `${url.pathname}${url.search}`,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    })
    if (hang) return
    if (url.pathname === '/v1/pets' && (req.method === 'GET' || req.method === 'HEAD')) {
      const limit = url.searchParams.get('limit')
      // 200 for a limit the contract answers 400 (gap.limitOutOfRange).
      if (limit !== null && !/^[1-9][0-9]?$|^100$/.test(limit)) return send(res, 200, RATE, [])
      // No X-RateLimit-* headers (spec.rate-limit.headers); two cookies and a header in its own case.
      return send(
        res,
        200,
        { 'Set-Cookie': ['a=1; Path=/', 'b=2; Path=/'], 'X-Upstream-Trace': 'T-1' },
        PETS,
      )
    }
    if (url.pathname.startsWith('/v1/pets/') && req.method === 'GET') {
      // An Error without code, message and status (spec.errors.body).
      return send(res, 404, { ...RATE, ...GET_PET }, { error: 'not found' })
    }
    return send(res, 404, RATE, { code: 'route_not_found', message: 'No route.', status: 404 })
  })
})

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address()
  process.stdout.write(`broken upstream serving http://127.0.0.1:${port}\n`)
})
process.on('SIGTERM', () => process.exit(0))
