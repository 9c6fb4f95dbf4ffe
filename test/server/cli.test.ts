import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

afterAll(() => killAllChildren())

describe('the CLI', () => {
  it('prints the help with every flag and exits 0', async () => {
    const run = spawnCli(['--help'])
    expect(await run.exited).toBe(0)
    for (const flag of [
      '--config',
      '--key',
      '--port',
      '--host',
      '--seed',
      '--pets',
      '--scenario',
      '--data',
      '--admin-token',
      '--base-path',
      '--quiet',
      '--version',
    ])
      expect(run.stdout()).toContain(flag)
  })

  it('prints the package version and exits 0', async () => {
    const run = spawnCli(['--version'])
    expect(await run.exited).toBe(0)
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(run.stdout().trim()).toBe(pkg.version)
  })

  it.each([
    [['--bogus']],
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--port', '-1']],
    [['--key', 'team=gold']],
    [['--config', '/nonexistent/petstore-sandbox.json']],
    [['--pets', '-1']],
    [['--seed', '1.5']],
    [['--base-path', 'v1']],
    [['--admin-token', 'has space']],
    [['--scenario', 'no-such-scenario']],
    [['extra-positional']],
  ])('exits 2 with a clear message for bad arguments %j', async (args) => {
    const run = spawnCli(args)
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/^petstore-sandbox: Failed to /)
    expect(run.stderr()).toContain('--help')
  })

  it('exits 2 for a PORT environment variable that is not a port', async () => {
    const run = spawnCli([], { PORT: 'eighty' })
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toContain('PORT')
  })

  it('serves with the flags given, prints the URL, keys and scenario help, logs one line per request without the key, and exits 0 on SIGINT', async () => {
    const run = spawnCli([
      '--port',
      '0',
      '--seed',
      '7',
      '--pets',
      '3',
      '--scenario',
      'empty',
      '--base-path',
      '/api/v1',
    ])
    const origin = await serverOrigin(run)
    const banner = run.stdout()
    expect(banner).toContain(`${origin}/api/v1`)
    expect(banner).toContain('sandbox-enterprise')
    expect(banner).toContain('__scenario=NAME')
    expect(banner).toContain('default, empty, paginated, rate-limited')
    // The API reference (issue 30) is named in the banner.
    expect(banner).toContain(`${origin}/__sandbox/docs`)
    const response = await fetch(`${origin}/api/v1/pets?limit=5`, {
      headers: { authorization: 'Bearer sandbox-pro' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([])
    const normal = await fetch(`${origin}/api/v1/pets?__scenario=default`, {
      headers: { authorization: 'Bearer sandbox-pro' },
    })
    expect(((await normal.json()) as unknown[]).length).toBe(3)
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
    const lines = run
      .stdout()
      .split('\n')
      .filter((l) => /^\d\d:\d\d/.test(l))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/GET +\/api\/v1\/pets\?limit=5 +200 +[0-9.]+ms empty +pro +default$/)
    expect(lines.join('\n')).not.toContain('sandbox-pro')
  })

  it('starts with the keys, seed and scenario of a config file, a --key and an environment variable, the flag winning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'))
    const config = join(dir, 'sandbox.json')
    writeFileSync(
      config,
      JSON.stringify({
        seed: 7,
        pets: 4,
        scenario: 'empty',
        quiet: true,
        data: 'pets.json',
        keys: { 'team-key': 'pro', 'big-co': { plan: 'enterprise', perMinute: 2, perDay: 100 } },
      }),
    )
    const run = spawnCli(['--config', config, '--port', '0', '--scenario', 'default'], {
      PETSTORE_SANDBOX_KEY: 'ci-key=business',
      PETSTORE_SANDBOX_PETS: '3',
    })
    const origin = await serverOrigin(run)
    // Issue 21: the configured keys by name (in part, as the request log shows keys), each with its plan.
    for (const line of [
      'team…(redacted)      pro (configured)',
      // At most four characters, never more than half: "big-co" shows "big".
      'big…(redacted)       enterprise (configured)',
      'ci-…(redacted)       business (configured)',
    ])
      expect(run.stdout()).toContain(line)
    expect(run.stdout()).not.toContain('team-key')
    const list = async (key: string) =>
      fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })
    const team = await list('team-key')
    expect(team.headers.get('x-ratelimit-limit')).toBe('300')
    // The environment's pets (3) over the file's (4); the flag's scenario over the file's.
    expect(((await team.json()) as unknown[]).length).toBe(3)
    expect((await list('ci-key')).headers.get('x-ratelimit-limit')).toBe('1000')
    expect((await list('big-co')).headers.get('x-ratelimit-limit')).toBe('2')
    expect((await list('big-co')).status).toBe(200)
    expect((await list('big-co')).status).toBe(429)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    // quiet from the file; data resolved next to the file.
    expect(run.stdout()).not.toContain('/v1/pets ')
    expect(JSON.parse(readFileSync(join(dir, 'pets.json'), 'utf8')).pets).toHaveLength(3)
  })

  it('exits 2 naming the field for a config file that breaks its schema', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'petstore-cli-')), 'sandbox.json')
    writeFileSync(config, JSON.stringify({ keys: { team: { plan: 'enterprise', perDay: -1 } } }))
    const run = spawnCli(['--config', config])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toContain(
      `Failed to read the config file ${config}: keys.team.perDay must be a whole number >= 1`,
    )
  })

  it('reads a .mjs config file through its default export', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'petstore-cli-')), 'sandbox.config.mjs')
    writeFileSync(config, "export default { quiet: true, keys: { 'mjs-key': 'business' } }\n")
    const run = spawnCli(['--port', '0'], { PETSTORE_SANDBOX_CONFIG: config })
    const origin = await serverOrigin(run)
    const response = await fetch(`${origin}/v1/pets`, {
      headers: { authorization: 'Bearer mjs-key' },
    })
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })

  it('logs nothing per request with --quiet', async () => {
    const run = spawnCli(['--port', '0', '--quiet'])
    const origin = await serverOrigin(run)
    await (await fetch(`${origin}/v1/pets`)).text()
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(run.stdout()).not.toContain('/v1/pets ')
  })

  it('takes the port from PORT', async () => {
    const probe = spawnCli(['--port', '0', '--quiet'])
    const free = Number(new URL(await serverOrigin(probe)).port)
    probe.child.kill('SIGTERM')
    expect(await probe.exited).toBe(0)
    const run = spawnCli(['--quiet'], { PORT: String(free) })
    expect(await serverOrigin(run)).toBe(`http://127.0.0.1:${free}`)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })

  it('refuses a corrupt data file with exit 1 and a clear message, leaving it untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-cli-')), 'pets.json')
    const corrupt = '{"version":1,"nextId":3,"pets":[{"id":1,"name":"Rex"'
    writeFileSync(file, corrupt)
    const run = spawnCli(['--port', '0', '--data', file])
    expect(await run.exited).toBe(1)
    expect(run.stderr()).toContain(`Failed to load the data file ${file}`)
    expect(readFileSync(file, 'utf8')).toBe(corrupt)
  })

  it('refuses a data file that breaks the schema (a duplicate id) with exit 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-cli-')), 'pets.json')
    const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' }
    const content = JSON.stringify({ version: 1, nextId: 2, pets: [pet, pet] })
    writeFileSync(file, content)
    const run = spawnCli(['--port', '0', '--data', file])
    expect(await run.exited).toBe(1)
    expect(run.stderr()).toContain('duplicate id')
    expect(readFileSync(file, 'utf8')).toBe(content)
  })

  it('finishes a request in flight on SIGTERM, refuses new connections, and exits 0', async () => {
    const run = spawnCli(['--port', '0'])
    const origin = await serverOrigin(run)
    const { hostname, port } = new URL(origin)
    const body = JSON.stringify({ name: 'Late', categoryId: 2 })
    // A create whose body is only half sent: the request is in flight.
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: '/v1/pets',
          headers: {
            authorization: 'Bearer sandbox-free',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => {
            text += c.toString()
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        },
      )
      req.on('error', reject)
      req.write(body.slice(0, 10))
      // Once another request has been answered, the server has seen this one's headers.
      fetch(`${origin}/__sandbox/clock`)
        .then((r) => r.text())
        .then(() => {
          run.child.kill('SIGTERM')
          // The CLI says it is stopping once the signal is handled.
          return new Promise<void>((r) => {
            const check = (): void => {
              if (run.stdout().includes('SIGTERM:')) r()
              else run.child.stdout?.once('data', check)
            }
            check()
          })
        })
        .then(
          () =>
            fetch(`${origin}/__sandbox/clock`).then(
              () => reject(new Error('A new connection was accepted after SIGTERM')),
              () => req.end(body.slice(10)),
            ),
          reject,
        )
    })
    const { status, text } = await answered
    expect(status).toBe(201)
    expect(JSON.parse(text)).toMatchObject({ name: 'Late', id: 26 })
    expect(await run.exited).toBe(0)
  })
})
