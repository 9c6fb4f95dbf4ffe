import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxServer } from '../../src/server/index.js'

// The dashboard's routes over real HTTP: the page without the token, the data with it only,
// the event stream's frames, the quotas and pets, revoking by reference.
const TOKEN = 'routes-token-5678'
const open = createSandboxServer()
const guarded = createSandboxServer({ adminToken: TOKEN })
let origin = ''
let guardedOrigin = ''
beforeAll(async () => {
  origin = (await open.listen(0, '127.0.0.1')).url
  guardedOrigin = (await guarded.listen(0, '127.0.0.1')).url
})
afterAll(async () => {
  await open.close()
  await guarded.close()
})

const FREE = { authorization: 'Bearer sandbox-free' }

/** Reads the event stream until `done` says it has seen enough, then hangs up. */
const readEvents = async (
  url: string,
  headers: Record<string, string>,
  done: (events: { event: string; data: unknown }[]) => boolean,
  afterOpen: () => Promise<void> = async () => {},
) => {
  const controller = new AbortController()
  const response = await fetch(url, { headers, signal: controller.signal })
  expect(response.headers.get('content-type')).toContain('text/event-stream')
  expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  const events: { event: string; data: unknown }[] = []
  let buffer = ''
  let opened = false
  while (!done(events)) {
    const { value, done: ended } = await reader.read()
    if (ended) break
    buffer += decoder.decode(value, { stream: true })
    let cut = buffer.indexOf('\n\n')
    while (cut !== -1) {
      const frame = buffer.slice(0, cut)
      buffer = buffer.slice(cut + 2)
      const event = /^event: (.*)$/m.exec(frame)?.[1]
      const data = /^data: (.*)$/m.exec(frame)?.[1]
      if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) })
      cut = buffer.indexOf('\n\n')
    }
    if (!opened && events.length >= 2) {
      opened = true
      await afterOpen()
    }
  }
  controller.abort()
  return events
}

describe('the dashboard routes', () => {
  it('serves the page and its hashed files without the token, and its data only with it', async () => {
    const page = await fetch(`${guardedOrigin}/__sandbox/`)
    expect(page.status).toBe(200)
    const html = await page.text()
    const script = /src="(\/__sandbox\/assets\/dashboard-[A-Z0-9]+\.js)"/.exec(html)?.[1]
    expect(script).toBeDefined()
    const file = await fetch(`${guardedOrigin}${script}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toContain('text/javascript')
    expect(file.headers.get('cache-control')).toContain('immutable')
    // Issue 31, item 15: the page names its icon, so no browser asks for a /favicon.ico that 404s.
    expect(html).toContain(
      '<link rel="icon" type="image/svg+xml" href="/__sandbox/assets/icon.svg">',
    )
    const icon = await fetch(`${guardedOrigin}/__sandbox/assets/icon.svg`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    for (const path of ['/events', '/quotas', '/pets', '/keys/by-ref/abc']) {
      const denied = await fetch(`${guardedOrigin}/__sandbox${path}`, {
        method: path.startsWith('/keys') ? 'DELETE' : 'GET',
      })
      expect(denied.status, path).toBe(403)
      expect(await denied.json()).toMatchObject({ code: 'forbidden', status: 403 })
    }
    const allowed = await fetch(`${guardedOrigin}/__sandbox/quotas`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(allowed.status).toBe(200)
  })

  it('answers 404 route_not_found for a file the page does not have, never reading the disk', async () => {
    for (const name of ['../../package.json', '..%2F..%2Fpackage.json', 'index.html', 'nope.js']) {
      const response = await fetch(`${origin}/__sandbox/assets/${name}`)
      expect(response.status, name).toBe(404)
      expect(await response.json()).toMatchObject({ code: 'route_not_found' })
    }
  })

  it('streams a snapshot and the backlog at once, then the requests the API answers in batches, secrets redacted', async () => {
    const events = await readEvents(
      `${origin}/__sandbox/events`,
      {},
      (seen) => seen.some((e) => e.event === 'requests'),
      async () => {
        await fetch(`${origin}/v1/pets?limit=1&token=s3cret`, {
          headers: { ...FREE, cookie: 'session=abc' },
        })
      },
    )
    expect(events[0]?.event).toBe('snapshot')
    expect(events[1]?.event).toBe('backlog')
    const batch = events.find((e) => e.event === 'requests')?.data as {
      entries: Record<string, unknown>[]
      skipped: number
    }
    expect(batch.skipped).toBe(0)
    const request = batch.entries.at(-1)
    expect(request).toMatchObject({
      method: 'GET',
      url: '/v1/pets?limit=1&token=(redacted)',
      status: 200,
      scenario: 'default',
      plan: 'free',
      session: 'default',
      request: { headers: { authorization: 'Bearer sand…(redacted)', cookie: '(redacted)' } },
      response: { headers: { 'x-total-count': '25' } },
    })
    expect(JSON.stringify(request)).not.toContain('s3cret')
    expect(JSON.stringify(request)).not.toContain('session=abc')
  })

  it('reports no response for a failed connection', async () => {
    await fetch(`${origin}/v1/pets?__scenario=network-error`, { headers: FREE }).catch(() => {})
    const events = await readEvents(`${origin}/__sandbox/events`, {}, (seen) => seen.length >= 2)
    const backlog = events[1]?.data as { url: string; status: number | null; response: unknown }[]
    expect(backlog.at(-1)).toMatchObject({
      url: '/v1/pets?__scenario=network-error',
      status: null,
      fault: 'network-error',
      response: null,
    })
  })

  it('counts requests in the quotas without counting the read itself', async () => {
    await open.sandbox.reset()
    const used = async () => {
      const body = (await (await fetch(`${origin}/__sandbox/quotas`)).json()) as {
        quotas: { label: string; minute: { used: number; limit: number } }[]
      }
      return body.quotas.find((q) => q.label === 'sandbox-pro')?.minute
    }
    expect(await used()).toEqual(expect.objectContaining({ used: 0, limit: 300 }))
    for (let i = 0; i < 4; i++)
      await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer sandbox-pro' } })
    expect(await used()).toEqual(expect.objectContaining({ used: 4 }))
    expect(await used()).toEqual(expect.objectContaining({ used: 4 }))
  })

  it('shows the quotas, scenario, clock and pets of the session a page watches', async () => {
    await open.sandbox.reset()
    const inSession = { 'x-sandbox-session': 'dash-watched' }
    for (let i = 0; i < 3; i++)
      await fetch(`${origin}/v1/pets`, { headers: { ...FREE, ...inSession } })
    await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...FREE, ...inSession, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Watched', categoryId: 1 }),
    })
    await fetch(`${origin}/__sandbox/scenario?__session=dash-watched`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'slow' }),
    })
    type Snapshot = {
      scenario: string
      quotas: { label: string; minute: { used: number } }[]
    }
    const watched = (await (
      await fetch(`${origin}/__sandbox/quotas`, { headers: inSession })
    ).json()) as Snapshot
    expect(watched.scenario).toBe('slow')
    expect(watched.quotas.find((q) => q.label === 'sandbox-free')?.minute.used).toBe(4)
    const own = (await (await fetch(`${origin}/__sandbox/quotas`)).json()) as Snapshot
    expect(own.scenario).toBe('default')
    expect(own.quotas.find((q) => q.label === 'sandbox-free')?.minute.used ?? 0).toBe(0)
    const pets = (await (
      await fetch(`${origin}/__sandbox/pets?limit=100&__session=dash-watched`)
    ).json()) as { total: number }
    expect(pets.total).toBe(26)
    const events = await readEvents(`${origin}/__sandbox/events`, inSession, (seen) =>
      seen.some((e) => e.event === 'snapshot'),
    )
    const snapshot = events.find((e) => e.event === 'snapshot')?.data as Snapshot | undefined
    expect(snapshot?.scenario).toBe('slow')
  })

  it('masks generated keys and revokes a key by its reference', async () => {
    const created = (await (
      await fetch(`${origin}/__sandbox/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"plan":"pro"}',
      })
    ).json()) as { key: string }
    const body = (await (await fetch(`${origin}/__sandbox/quotas`)).text()) as string
    expect(body).not.toContain(created.key)
    const quotas = (JSON.parse(body) as { quotas: { label: string; ref: string }[] }).quotas
    const gauge = quotas.find((q) => q.label === `${created.key.slice(0, 15)}…`)
    expect(gauge).toBeDefined()
    const revoked = await fetch(`${origin}/__sandbox/keys/by-ref/${gauge?.ref}`, {
      method: 'DELETE',
    })
    expect(revoked.status).toBe(204)
    expect(
      (await fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer ${created.key}` } }))
        .status,
    ).toBe(401)
    const again = await fetch(`${origin}/__sandbox/keys/by-ref/${gauge?.ref}`, { method: 'DELETE' })
    expect(again.status).toBe(404)
    expect(await again.json()).toMatchObject({ code: 'key_not_found' })
  })

  it('pages through the pets by status without a key and without touching a quota', async () => {
    const page = (await (await fetch(`${origin}/__sandbox/pets?status=sold&limit=2`)).json()) as {
      pets: { id: number; status: string }[]
      total: number
      nextAfter: number | null
    }
    expect(page.pets).toHaveLength(2)
    expect(page.pets.every((p) => p.status === 'sold')).toBe(true)
    const next = (await (
      await fetch(`${origin}/__sandbox/pets?status=sold&limit=2&after=${page.nextAfter}`)
    ).json()) as { pets: { id: number }[] }
    expect(next.pets[0]?.id).toBeGreaterThan(page.pets[1]?.id ?? 0)
    const bad = await fetch(`${origin}/__sandbox/pets?status=lost`)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({
      code: 'invalid_parameter',
      details: [{ field: 'status' }],
    })
  })

  it('ends open event streams when the server closes', async () => {
    // A grace time longer than the test: only ending the streams lets close() finish in time.
    const server = createSandboxServer({ shutdownGraceMs: 60_000 })
    const at = (await server.listen(0, '127.0.0.1')).url
    const response = await fetch(`${at}/__sandbox/events`)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    await server.close()
    let ended = false
    while (!ended) ended = (await reader.read()).done
    expect(ended).toBe(true)
  })
})
