import { describe, expect, it } from 'vitest'
import { runPactCommand } from '../../src/cli/pact-command.js'
import { REAL_DOCUMENTS, useRealDocumentServer } from '../support/real-document-server.js'

// Real documents no one here wrote (test/openapi/fixtures/real, issue 35): the Pact export
// keeps the exchanges of every operation of each document (the OpenAPI pre-check knows the
// document's operations, not only the contract's).
describe.each(REAL_DOCUMENTS)('a real document, %s', (document) => {
  const real = useRealDocumentServer(document)

  it('exports every operation’s exchanges as Pact interactions', async () => {
    await real.app.sandbox.reset()
    const answered: string[] = []
    for (const op of real.added) {
      const answer = await real.send(op)
      if (answer.status < 300) answered.push(`${op.method} ${real.url(op).slice(real.base.length)}`)
      await answer.arrayBuffer()
    }
    expect(answered.length).toBeGreaterThan(0)
    const pact = await fetch(`${real.base}/__sandbox/pact?consumer=web-app&provider=real-api`)
    expect(pact.status).toBe(200)
    const { pact: file, problems } = (await pact.json()) as {
      pact: { interactions: { request: { method: string; path: string } }[] }
      problems: { interaction: string; seqs: number[]; problems: string[] }[]
    }
    // The pre-check knows every operation of the document: none is refused as unknown.
    expect(JSON.stringify(problems)).not.toContain('no operation of the OpenAPI document answers')
    // Every successful exchange is an interaction, or a listed problem (a body the journal cut,
    // a property the document does not declare), never silently left out.
    const journal = (await (await fetch(`${real.base}/__sandbox/requests`)).json()) as {
      seq: number
      method: string
      url: string
    }[]
    const listed = new Set(problems.flatMap((p) => p.seqs))
    const paths = new Set(file.interactions.map((i) => `${i.request.method} ${i.request.path}`))
    for (const exchange of answered) {
      const [method, pathAndQuery = ''] = exchange.split(' ')
      const path = pathAndQuery.split('?')[0] ?? ''
      if (paths.has(`${method} ${path}`)) continue
      const entry = journal.find((e) => e.method === method && new URL(e.url).pathname === path)
      expect(entry, exchange).toBeDefined()
      expect(listed.has(entry?.seq ?? -1), exchange).toBe(true)
    }
    expect(paths.size).toBeGreaterThan(0)
  })
  it('pact --from the requests.har --openapi the document writes the same pact', async () => {
    await real.app.sandbox.reset()
    for (const op of real.added) await (await real.send(op)).arrayBuffer()
    const live = (await (
      await fetch(`${real.base}/__sandbox/pact?consumer=web-app&provider=real-api`)
    ).json()) as { pact: unknown; problems: unknown[] }
    const har = await (await fetch(`${real.base}/__sandbox/requests.har`)).text()
    const run = async (extra: string[]) => {
      let stdout = ''
      let stderr = ''
      const status = await runPactCommand(
        ['--from', 's.har', '--consumer', 'web-app', '--provider', 'real-api', ...extra],
        {
          stdout: { write: (t: string) => (stdout += t) },
          stderr: { write: (t: string) => (stderr += t) },
          readFile: async () => har,
        },
      )
      return { status, stdout, stderr }
    }
    // Without the document, the pre-check knows only the contract's operations.
    const bare = await run([])
    expect(bare.stderr).toContain('no operation of the OpenAPI document answers')
    const withDocument = await run(['--openapi', document])
    expect(withDocument.stderr).not.toContain('no operation of the OpenAPI document answers')
    expect(withDocument.status).toBe(live.problems.length > 0 ? 1 : 0)
    expect(JSON.parse(withDocument.stdout)).toEqual(live.pact)
  })
})
