import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killAllChildren, serverOrigin, spawnCli } from '../server/spawn-cli.js'

// Issue 35 item 14: an example that breaks its own schema is not served, and the CLI says so
// once, in one line, unless --quiet.
const folder = mkdtempSync(join(tmpdir(), 'openapi-notes-'))
const FILE = join(folder, 'search.json')
writeFileSync(
  FILE,
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'search', version: '1' },
    paths: {
      '/search': {
        get: {
          operationId: 'search',
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['count'],
                    properties: { count: { type: 'integer' } },
                  },
                  example: { count: 'many' },
                },
              },
            },
          },
        },
      },
    },
  }),
)

afterAll(killAllChildren)

describe('the CLI notes an invalid example of the document', () => {
  it('prints one note line, and none under --quiet; the answer is generated', async () => {
    const loud = spawnCli(['--openapi', FILE, '--port', '0'])
    const quiet = spawnCli(['--openapi', FILE, '--port', '0', '--quiet'])
    const [origin] = await Promise.all([serverOrigin(loud), serverOrigin(quiet)])
    const notes = loud
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('petstore-sandbox: note:'))
    expect(notes).toHaveLength(1)
    expect(notes[0]).toContain('1 example that is not valid by its own schema (search 200)')
    expect(quiet.stderr()).not.toContain('note:')
    const answer = await fetch(`${origin}/v1/search`, {
      headers: { authorization: 'Bearer sandbox-free' },
    })
    expect(answer.status).toBe(200)
    expect(typeof ((await answer.json()) as { count: unknown }).count).toBe('number')
    loud.child.kill()
    quiet.child.kill()
  }, 60_000)
})
