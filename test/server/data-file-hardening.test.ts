import { execFileSync } from 'node:child_process'
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSandboxCore } from '../../src/sandbox/create-sandbox-core.js'
import { attachDataFile } from '../../src/server/data-file/attach-data-file.js'
import { DataFileError } from '../../src/server/data-file/read-data-file.js'

// Issue 10 point 7: the data file after SIGKILLs, behind a symlink, with a strict mode, as a FIFO.
const newDir = () => mkdtempSync(join(tmpdir(), 'petstore-data-'))
const attach = async (path: string) => {
  const sandbox = createSandboxCore({ seed: 1, pets: 3 })
  const data = await attachDataFile(sandbox, path)
  return { sandbox, data }
}
const createOne = async (sandbox: ReturnType<typeof createSandboxCore>) => {
  await sandbox.ready
  await sandbox.db.pets.create({ name: 'Written', categoryId: 1, status: 'available' })
}
const petFile = (pets: unknown[], nextId = 100) => JSON.stringify({ version: 1, nextId, pets })

describe('the data file, hardened', () => {
  it('removes stray temp files a killed server left, and nothing else', async () => {
    const dir = newDir()
    const file = join(dir, 'pets.json')
    writeFileSync(file, petFile([]))
    // pid 2^22 + 1 is above Linux's pid_max, so no process has it.
    const strays = ['.pets.json.4194305.1.tmp', '.pets.json.4194305.22.tmp']
    for (const name of strays) writeFileSync(join(dir, name), '{"partial')
    writeFileSync(join(dir, '.other.json.4194305.1.tmp'), 'not ours')
    writeFileSync(join(dir, 'notes.tmp'), 'not ours')
    await attach(file)
    expect(readdirSync(dir).sort()).toEqual(['.other.json.4194305.1.tmp', 'notes.tmp', 'pets.json'])
  })

  it('keeps a symlinked data file a symlink and writes through to its target', async () => {
    const dir = newDir()
    mkdirSync(join(dir, 'real'))
    const target = join(dir, 'real', 'store.json')
    writeFileSync(target, petFile([]))
    const link = join(dir, 'pets.json')
    symlinkSync(target, link)
    const { sandbox, data } = await attach(link)
    await createOne(sandbox)
    await data.flush()
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(target, 'utf8')).pets).toHaveLength(1)
    expect(readdirSync(dir).sort()).toEqual(['pets.json', 'real'])
  })

  it("keeps the file's mode (0600 stays 0600)", async () => {
    const dir = newDir()
    const file = join(dir, 'pets.json')
    writeFileSync(file, petFile([]), { mode: 0o600 })
    const { sandbox, data } = await attach(file)
    await createOne(sandbox)
    await data.flush()
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('creates a new file 0600 (it may hold password and key hashes)', async () => {
    const dir = newDir()
    const file = join(dir, 'pets.json')
    const { sandbox, data } = await attach(file)
    await createOne(sandbox)
    await data.flush()
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('refuses a FIFO with a clear start-up error instead of hanging', async () => {
    const dir = newDir()
    const fifo = join(dir, 'pets.json')
    execFileSync('mkfifo', [fifo])
    const outcome = await Promise.race([
      attach(fifo).then(
        () => 'started',
        (error: unknown) => error,
      ),
      new Promise((resolve) => setTimeout(() => resolve('hung'), 3_000)),
    ])
    expect(outcome).toBeInstanceOf(DataFileError)
    expect(String(outcome)).toMatch(/not a regular file/)
  })

  it.each([
    ['a name of 1,000 characters', { name: 'x'.repeat(1000) }, /pets\.0\.name/],
    ['a name with a control character', { name: 'Rex\u001b[31m' }, /pets\.0\.name/],
    ['an empty name', { name: '   ' }, /pets\.0\.name/],
    ['an unknown status', { status: 'lost' }, /pets\.0\.status/],
    ['a fractional categoryId', { categoryId: 1.5 }, /pets\.0\.categoryId/],
  ])('refuses to load %s, naming the field, and leaves the file alone', async (_n, bad, field) => {
    const dir = newDir()
    const file = join(dir, 'pets.json')
    const text = petFile([{ id: 1, name: 'Rex', categoryId: 1, status: 'available', ...bad }])
    writeFileSync(file, text)
    const error = await attach(file).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(DataFileError)
    expect(String(error)).toMatch(field)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it('loads a name the API would accept, stored trimmed', async () => {
    const dir = newDir()
    const file = join(dir, 'pets.json')
    writeFileSync(file, petFile([{ id: 1, name: ' Rex ', categoryId: 1, status: 'sold' }]))
    const { sandbox } = await attach(file)
    expect(sandbox.db.pets.get(1)?.name).toBe('Rex')
  })
})
