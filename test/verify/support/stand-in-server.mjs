// A small Pet Store deployment that is not the sandbox: plain node:http, run as its own
// process by the verify tests. It keeps the spec, but where the spec is silent it answers
// otherwise than the sandbox's defaults (every gap of contract §16). With "broken" it
// breaks the spec rules named there, so that verify must name each.
// Usage: node stand-in-server.mjs '{"key":"k","broken":["sunset"]}' → prints "listening <url>/v1".
import { createServer } from 'node:http'

const options = JSON.parse(process.argv[2] ?? '{}')
const KEY = options.key ?? 'stand-in-key'
const broken = new Set(options.broken ?? [])
const NAME_MAX = 50
const BODY_MAX = 16_384
const STATUSES = ['available', 'pending', 'sold']
// Its own error codes: this contract's code → the stand-in's.
const CODES = {
  missing_api_key: 'unauthorized',
  malformed_authorization: 'unauthorized',
  invalid_api_key: 'unauthorized',
  invalid_parameter: 'bad_request',
  validation_failed: 'bad_request',
  malformed_json: 'bad_request',
  invalid_content_type: 'bad_request',
  pet_not_found: 'not_found',
  route_not_found: 'not_found',
  payload_too_large: 'too_large',
  method_not_allowed: 'method_not_allowed',
}

const pets = Array.from({ length: 30 }, (_, i) => ({
  id: i + 1,
  name: `Stand-in ${i + 1}`,
  categoryId: 1 + (i % 5),
  status: STATUSES[i % 3],
}))
let nextId = 31
let remaining = 1_000

const rateHeaders = () => {
  remaining = Math.max(0, remaining - 1)
  const headers = { 'X-RateLimit-Limit': '1000' }
  if (!broken.has('no-remaining')) headers['X-RateLimit-Remaining'] = String(remaining)
  headers['X-RateLimit-Reset'] = broken.has('reset-delta')
    ? '60'
    : String((Math.floor(Date.now() / 60_000) + 1) * 60)
  return headers
}

const send = (res, status, body, headers = {}) => {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json', ...rateHeaders(), ...headers })
  res.end(text)
}

const fail = (res, status, code, message, extra = {}) => {
  const headers = { ...extra.headers }
  if (status === 401 && !broken.has('no-challenge'))
    headers['WWW-Authenticate'] = 'Bearer realm="stand-in"'
  if (status === 400 && broken.has('text-errors')) headers['Content-Type'] = 'text/plain'
  const said = code === 'missing_api_key' && broken.has('error-status') ? 403 : status
  const body = { code: CODES[code] ?? code, message, status: said }
  if (extra.details !== undefined) body.details = extra.details
  if (code === 'invalid_api_key' && broken.has('error-body'))
    return send(res, status, { error: message }, headers)
  send(res, status, body, headers)
}

const isInteger = (text) => /^-?[0-9]+$/.test(text)

const listPets = (res, query, url) => {
  let limit = 20
  const limitText = query.get('limit')
  if (limitText !== null) {
    limit = isInteger(limitText) ? Math.min(100, Math.max(1, Number(limitText))) : 20
  } else if (broken.has('default-limit-25')) limit = 25
  const statusText = query.get('status')
  const status = STATUSES.includes(statusText) ? statusText : undefined
  const offsetText = query.get('offset') ?? '0'
  if (!/^(0|[1-9][0-9]*)$/.test(offsetText))
    return fail(res, 400, 'invalid_parameter', 'offset must be a whole number.')
  const offset = Number(offsetText)
  let matching = status === undefined ? pets : pets.filter((p) => p.status === status)
  if (status === 'sold' && broken.has('status-filter'))
    matching = pets.filter((p) => p.status !== 'available')
  const page = matching.slice(offset, offset + limit)
  const headers = { 'X-Total': String(matching.length) }
  if (offset + limit < matching.length) {
    const next = new URLSearchParams({ limit: String(limit), offset: String(offset + limit) })
    if (status !== undefined) next.set('status', status)
    headers.Link = `<${url.origin}/v1/pets?${next}>; rel="next"`
  }
  if (status === 'pending' && broken.has('list-body'))
    return send(res, 200, { items: page }, headers)
  send(res, 200, page, headers)
}

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = []
    let size = 0
    req.on('data', (chunk) => {
      size += chunk.length
      if (size <= BODY_MAX) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > BODY_MAX ? null : Buffer.concat(chunks).toString('utf8')))
  })

const createPet = async (req, res, url) => {
  const text = await readBody(req)
  if (text === null)
    return fail(res, 413, 'payload_too_large', `Bodies are at most ${BODY_MAX} bytes.`)
  if (
    !/^application\/json\b/i.test(req.headers['content-type'] ?? '') &&
    !broken.has('any-content-type')
  )
    return fail(res, 400, 'invalid_content_type', 'Send JSON.')
  let value
  try {
    value = JSON.parse(text)
  } catch {
    return fail(res, 400, 'malformed_json', 'The body is not JSON.')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail(res, 400, 'validation_failed', 'Send an object.', {
      details: [{ field: '(body)', message: 'must be an object' }],
    })
  const details = []
  for (const field of Object.keys(value))
    if (!['name', 'categoryId', 'status'].includes(field))
      details.push({ field, message: 'is not allowed' })
  // `name-optional`: a deployment that names a pet itself when the client sent none.
  const name =
    typeof value.name === 'string'
      ? value.name.trim()
      : value.name === undefined && broken.has('name-optional')
        ? 'unnamed'
        : undefined
  if (name === undefined || name.length === 0 || [...name].length > NAME_MAX)
    details.push({ field: 'name', message: `must be 1 to ${NAME_MAX} characters` })
  const categoryOk = Number.isSafeInteger(value.categoryId) && value.categoryId >= 1
  if (!categoryOk && !(broken.has('accept-invalid') && value.categoryId === 'one'))
    details.push({ field: 'categoryId', message: 'must be a positive integer' })
  if (value.status !== undefined && !STATUSES.includes(value.status))
    details.push({ field: 'status', message: 'must be a PetStatus' })
  if (details.length > 0)
    return fail(res, 400, 'validation_failed', 'The pet is invalid.', { details })
  const status = broken.has('ignore-status-sent') ? 'available' : (value.status ?? 'pending')
  const pet = { id: nextId++, name, categoryId: categoryOk ? value.categoryId : 1, status }
  pets.push(pet)
  send(res, 201, pet, { Location: `${url.origin}/v1/pets/${pet.id}` })
}

const deprecation = () => ({
  Deprecation: broken.has('deprecation') ? 'true' : '@1767225600',
  Sunset: broken.has('sunset') ? 'Sat, 01 Jan 2028 00:00:00 GMT' : 'Thu, 05 Dec 2030 00:00:00 GMT',
})

const getPet = (res, idText) => {
  const headers = deprecation()
  if (!/^[1-9][0-9]{0,15}$/.test(idText))
    return fail(res, 400, 'invalid_parameter', 'petId must be a positive integer.', { headers })
  const id = Number(idText) + (broken.has('wrong-pet') ? 1 : 0)
  const pet = pets.find((p) => p.id === id)
  if (pet === undefined)
    return broken.has('not-found-400')
      ? fail(res, 400, 'invalid_parameter', 'No such pet.', { headers })
      : fail(res, 404, 'pet_not_found', `No pet ${idText}.`, { headers })
  send(res, 200, pet, headers)
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`)
  if (!url.pathname.startsWith('/v1/')) return fail(res, 404, 'route_not_found', 'Not here.')
  const auth = req.headers.authorization
  if (auth === undefined) return fail(res, 401, 'missing_api_key', 'Send a key.')
  const bearer = /^Bearer ([^\s]+)$/i.exec(auth)
  if (bearer === null)
    return broken.has('malformed-400')
      ? fail(res, 400, 'invalid_parameter', 'Bad header.')
      : fail(res, 401, 'malformed_authorization', 'Send "Bearer <key>".')
  if (bearer[1] !== KEY) return fail(res, 401, 'invalid_api_key', 'Unknown key.')
  const path = url.pathname.slice('/v1'.length)
  if (path === '/pets') {
    if (req.method === 'GET') return listPets(res, url.searchParams, url)
    if (req.method === 'POST') return createPet(req, res, url)
    return fail(res, 405, 'method_not_allowed', 'No.', { headers: { Allow: 'GET, POST' } })
  }
  const match = /^\/pets\/([^/]+)$/.exec(path)
  if (match !== null && req.method === 'GET') return getPet(res, match[1])
  if (broken.has('html-404')) {
    res.writeHead(404, { 'Content-Type': 'text/html', ...rateHeaders() })
    return res.end('<html><body>Not Found</body></html>')
  }
  fail(res, 404, 'route_not_found', 'No such route.')
})

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${server.address().port}/v1\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
