// A hostile upstream deployment, run as a process of its own by the upstream
// hardening tests and benchmark (issue 31): what the sandbox must survive in
// front of a deployment that misbehaves. Every answer is chosen by the path
// below /v1/hostile/:
//
//   gzip-bomb, deflate-bomb, br-bomb  a small compressed body that inflates far past
//                    the limit (gzip: 1 MiB on the wire, 1 GiB inflated), Content-Encoding set
//   endless          200, chunks of 64 KiB as fast as the socket takes them, forever
//   drip             200, one byte every 50 ms, forever
//   long-length      Content-Length 1000, 10 bytes sent, then the connection closed
//   long-length-hang Content-Length 1000, 10 bytes sent, then nothing (kept open)
//   short-length     Content-Length 2, then 40 bytes more on the same connection
//   status-1000, status-99, bad-header-name   a raw status line or header node refuses
//   latin1-header    a header value with bytes past ASCII (read as Latin-1)
//   echo-key         the Authorization received, echoed in X-Echo-Authorization and the body
//   echo-key-escaped the same, JSON-escaped in the body (`\/`, `\u00XX`) and percent-encoded in X-Echo-Url
//   echo-key-binary  the same, among bytes that are not UTF-8 (a recording keeps it in base64)
//   expose           ETag, X-Request-Id and Access-Control-Expose-Headers naming them
//   sized?bytes=N    200, a JSON array of about N bytes (default 1024)
//
// It prints "serving http://127.0.0.1:PORT" once listening. Loopback only.
import { createServer } from 'node:http'
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib'

const MIB = 1024 * 1024

// gzip allows members one after another, each inflated in turn: 1,024 members of 1 MiB of
// zeros (about 1 KiB each) are a 1 MiB body that inflates to 1 GiB, made in milliseconds.
// deflate (32 MiB of zeros) and br (64 MiB) are single streams, still past the default limit.
let bombs
const loadBombs = () => {
  if (bombs === undefined) {
    const member = gzipSync(Buffer.alloc(MIB), { level: 9 })
    bombs = {
      gzip: Buffer.concat(Array(1024).fill(member)),
      deflate: deflateSync(Buffer.alloc(32 * MIB), { level: 9 }),
      br: brotliCompressSync(Buffer.alloc(64 * MIB), {
        params: { [constants.BROTLI_PARAM_QUALITY]: 1 },
      }),
    }
  }
  return bombs
}

const RATE = {
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '59',
  'X-RateLimit-Reset': '4102444800',
}

const json = (res, status, headers, body) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json', ...RATE, ...headers })
  res.end(text)
}

/** Writes bytes straight to the socket: a head node's own writer would refuse to lie. */
const raw = (req, text) => {
  req.socket.write(text)
}

const timers = new Set()
const every = (ms, fn) => {
  const timer = setInterval(fn, ms)
  timers.add(timer)
  return timer
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://hostile.invalid')
  const name = url.pathname.replace(/^\/v1\/hostile\//, '')
  req.resume()
  switch (name) {
    case 'gzip-bomb':
    case 'deflate-bomb':
    case 'br-bomb': {
      const encoding = name.slice(0, name.indexOf('-'))
      const body = loadBombs()[encoding]
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Encoding': encoding,
        'Content-Length': String(body.byteLength),
        ...RATE,
      })
      res.end(body)
      return
    }
    case 'endless': {
      res.writeHead(200, { 'Content-Type': 'application/json', ...RATE })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump)
      }
      res.write('[')
      pump()
      return
    }
    case 'drip': {
      res.writeHead(200, { 'Content-Type': 'application/json', ...RATE })
      res.write('[')
      const timer = every(50, () => {
        if (res.destroyed) {
          clearInterval(timer)
          timers.delete(timer)
        } else res.write(' ')
      })
      return
    }
    case 'long-length':
    case 'long-length-hang':
      raw(req, 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n')
      raw(req, '[1,2,3,4]')
      if (name === 'long-length') setTimeout(() => req.socket.destroy(), 20)
      return
    case 'short-length':
      raw(
        req,
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]{"smuggled":"after the length"}',
      )
      return
    case 'status-1000':
      raw(req, 'HTTP/1.1 1000 Weird\r\nContent-Length: 2\r\n\r\n[]')
      return
    case 'status-99':
      raw(req, 'HTTP/1.1 099 Weird\r\nContent-Length: 2\r\n\r\n[]')
      return
    case 'bad-header-name':
      raw(req, 'HTTP/1.1 200 OK\r\nBad Header: x\r\nContent-Length: 2\r\n\r\n[]')
      return
    case 'latin1-header':
      req.socket.write(
        Buffer.concat([
          Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Name: caf'),
          Buffer.from([0xc3, 0xa9]),
          Buffer.from('\r\nContent-Length: 2\r\n\r\n[]'),
        ]),
      )
      return
    case 'echo-key': {
      const auth = req.headers.authorization ?? ''
      json(res, 200, { 'X-Echo-Authorization': auth }, { youSent: auth, again: `key=${auth}` })
      return
    }
    case 'echo-key-escaped': {
      // The key as JSON escapes it: `/` as `\/` (PHP's json_encode), every character as \u00XX,
      // and percent-encoded in a header, as a URL would carry it.
      const auth = req.headers.authorization ?? ''
      const unicode = [...auth].map(
        (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
      )
      const text = `{"slashes":"${auth.replaceAll('/', '\\/')}","unicode":"${unicode.join('')}"}`
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'X-Echo-Url': `https://staging.test/?auth=${encodeURIComponent(auth)}`,
      })
      res.end(text)
      return
    }
    case 'echo-key-binary': {
      // Bytes that are not UTF-8 text around the key: recorded in base64.
      const auth = req.headers.authorization ?? ''
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' })
      res.end(
        Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), Buffer.from(auth), Buffer.from([0xc3])]),
      )
      return
    }
    case 'expose':
      json(
        res,
        200,
        {
          ETag: '"v1"',
          'X-Request-Id': 'req-42',
          'Access-Control-Expose-Headers': 'ETag, X-Request-Id',
        },
        [],
      )
      return
    case 'sized': {
      const bytes = Number(url.searchParams.get('bytes') ?? 1024)
      const item = '"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01"'
      const count = Math.max(0, Math.floor((bytes - 2) / (item.length + 1)))
      json(res, 200, {}, JSON.parse(`[${Array(count).fill(item).join(',')}]`))
      return
    }
    default:
      json(res, 404, {}, { code: 'route_not_found', message: `No ${name}.`, status: 404 })
  }
})

server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address()
  // Made before it says it serves: no test waits for them.
  loadBombs()
  console.log(`hostile upstream serving http://127.0.0.1:${port}`)
})

process.on('SIGTERM', () => {
  for (const timer of timers) clearInterval(timer)
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
