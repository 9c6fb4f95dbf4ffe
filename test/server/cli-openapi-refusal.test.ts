import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from './spawn-cli.js'

// Issue 35 item 5: Twilio printed 796 "unknown format ... ignored" lines before its refusal.
const dir = mkdtempSync(join(tmpdir(), 'cli-openapi-refusal-'))
afterAll(() => {
  killAllChildren()
  rmSync(dir, { recursive: true, force: true })
})

/** A document with 60 formats nobody knows, and, when asked, a $ref that reads outside its folder. */
const document = (outside: boolean): string => {
  const properties = Object.fromEntries(
    Array.from({ length: 60 }, (_, i) => [`p${i}`, { type: 'string', format: `custom-${i}` }]),
  )
  if (outside) properties.secret = { $ref: '../../etc/passwd' } as never
  const file = join(dir, outside ? 'refused.json' : 'started.json')
  writeFileSync(
    file,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'formats', version: '1' },
      paths: {
        '/things/{Sid}.json': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { type: 'object', properties } } },
              },
            },
          },
        },
      },
    }),
  )
  return file
}

describe('the CLI with --openapi: one line to refuse, one line to warn', () => {
  it('refuses with --quiet in exactly one line that names the place and what to change', async () => {
    const run = spawnCli(['--port', '0', '--quiet', '--openapi', document(true)])
    expect(await run.exited).toBe(1)
    expect(run.stdout()).toBe('')
    const lines = run.stderr().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /Failed to load the OpenAPI document: the \$ref "\.\.\/\.\.\/etc\/passwd" at #\/paths\/~1things~1\{Sid\}\.json\/get\/.*\/properties\/secret of the document reads outside the document's folder .* Move the file there, or bundle the document\./,
    )
  })

  it('summarizes unknown formats in one line at start, and says nothing of them with --quiet', async () => {
    const loud = spawnCli(['--port', '0', '--openapi', document(false)])
    await serverOrigin(loud)
    await expect.poll(() => loud.stdout()).toMatch(/60 formats the sandbox does not know/)
    expect(loud.stdout().match(/format/g)?.length).toBeLessThan(5)
    expect(loud.stderr()).toBe('')
    loud.child.kill('SIGTERM')
    const quiet = spawnCli(['--port', '0', '--quiet', '--openapi', document(false)])
    const origin = await serverOrigin(quiet)
    const answer = await fetch(`${origin}/v1/things/AC1.json`, {
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(answer.status).toBe(200)
    expect(quiet.stdout()).not.toMatch(/format/)
    expect(quiet.stderr()).toBe('')
    quiet.child.kill('SIGTERM')
  })
})
