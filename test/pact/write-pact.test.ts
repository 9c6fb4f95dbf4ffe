import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupSandbox, writePact } from 'petstore-sandbox/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Pact } from '../../src/index.js'

// writePact (issue 37 item 5): each call merges a journal's pact into one file, as Pact's own
// libraries do; writers at once (vitest's workers, here many sessions) each keep their part.
const sandbox = setupSandbox()
beforeAll(() => sandbox.listen())
afterAll(() => sandbox.close())

const API = 'https://api.example.test/v1'
const KEY = { authorization: 'Bearer sandbox-free' }
const NAMES = { consumer: 'web-app', provider: 'pet-store' }
const read = (file: string): Pact => JSON.parse(readFileSync(file, 'utf8')) as Pact

describe('writePact', () => {
  it('merges: an exchange already in the file is kept once, a new one numbered on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-write-pact-'))
    await fetch(`${API}/pets?limit=1`, { headers: KEY })
    const first = await writePact(sandbox, { ...NAMES, dir })
    expect(first.file).toBe(join(dir, 'web-app-pet-store.json'))
    await sandbox.reset()
    await fetch(`${API}/pets?limit=1`, { headers: KEY })
    await fetch(`${API}/pets?limit=2`, { headers: KEY })
    await writePact(sandbox, { ...NAMES, dir })
    await writePact(sandbox, { ...NAMES, dir })
    expect(read(first.file).interactions.map((i) => i.description)).toEqual([
      'listPets: 200',
      'listPets: 200 (2)',
    ])
    await sandbox.reset()
  })

  it('keeps every writer’s interactions when 20 write at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-write-pact-'))
    const sessions = Array.from({ length: 20 }, (_, i) => sandbox.session(`w${i}`))
    await Promise.all(
      sessions.map((_, i) =>
        fetch(`${API}/pets?limit=${i + 1}&__session=w${i}`, { headers: KEY }).then((r) => r.text()),
      ),
    )
    await Promise.all(sessions.map((session) => writePact(session, { ...NAMES, dir })))
    const pact = read(join(dir, 'web-app-pet-store.json'))
    expect(pact.interactions.map((i) => i.request.query?.limit?.[0]).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i + 1)).sort(),
    )
    expect(new Set(pact.interactions.map((i) => i.description)).size).toBe(20)
  })

  it('refuses a file that is not this pact, and a missing dir, with a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-write-pact-'))
    const file = join(dir, 'web-app-pet-store.json')
    writeFileSync(
      file,
      JSON.stringify({
        consumer: { name: 'other' },
        provider: { name: 'pet-store' },
        interactions: [],
      }),
    )
    await expect(writePact(sandbox, { ...NAMES, dir })).rejects.toThrow(
      'Failed to write the pact: the file there is the pact of other and pet-store, not of web-app and pet-store.',
    )
    // A pact file whose interactions are not interactions (edited by hand, another tool's).
    for (const interactions of [
      [null],
      [{ description: 'listPets: 200' }],
      [{ providerStates: [] }],
    ]) {
      writeFileSync(
        file,
        JSON.stringify({
          consumer: { name: 'web-app' },
          provider: { name: 'pet-store' },
          interactions,
        }),
      )
      await expect(writePact(sandbox, { ...NAMES, dir })).rejects.toThrow(
        'Failed to write the pact: the file there is not a Pact file',
      )
    }
    writeFileSync(file, '{ not json')
    await expect(writePact(sandbox, { ...NAMES, dir })).rejects.toThrow('is not JSON')
    await expect(writePact(sandbox, { ...NAMES, dir: '' })).rejects.toThrow(
      'Failed to write the pact: dir must name a folder',
    )
    await expect(writePact(sandbox, { consumer: '', provider: 'x', dir })).rejects.toThrow(
      'consumer',
    )
  })

  it('takes over at once a lock whose writer crashed (its process is gone)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-write-pact-'))
    const file = join(dir, 'web-app-pet-store.json')
    // A fresh lock (not a minute old) whose process has exited: a worker killed mid-write.
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    writeFileSync(`${file}.lock`, String(gone))
    await fetch(`${API}/pets?limit=3`, { headers: KEY })
    // Before the takeover, this waited 30 s for the lock and then failed.
    await writePact(sandbox, { ...NAMES, dir })
    expect(read(file).interactions).toHaveLength(1)
    expect(existsSync(`${file}.lock`)).toBe(false)
    await sandbox.reset()
  })

  it('refuses names whose file name no file system takes, with a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-sandbox-write-pact-'))
    // 200 characters each is a valid pact name, but not a 406-byte file name (ENAMETOOLONG).
    await expect(
      writePact(sandbox, { consumer: 'c'.repeat(200), provider: 'p'.repeat(200), dir }),
    ).rejects.toThrow(
      'Failed to write the pact: its file name (406 characters, from the consumer and provider names) is longer than file systems take (250). Use shorter names.',
    )
  })
})
