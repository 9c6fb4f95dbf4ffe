import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TTL_MS } from '../../src/state/memory-state.js'
import { SESSION_ID } from '../../src/state/sandbox-state.js'

// The sessions guide (it was the README's Sessions section before issue 21).
const section = readFileSync(new URL('../../docs/sessions.md', import.meta.url), 'utf8')

describe('the sessions guide', () => {
  it('exists', () => {
    expect(section.startsWith('# Sessions\n')).toBe(true)
  })

  it('shows the Playwright fixture exactly as the tested example has it', () => {
    const fixture = readFileSync(
      new URL('../../examples/playwright-sessions/session-fixture.ts', import.meta.url),
      'utf8',
    )
    expect(section).toContain(`// tests/session-fixture.ts\n${fixture.trimEnd()}\n\`\`\``)
  })

  it('states the defaults and the id rule the sandbox applies', () => {
    expect(DEFAULT_SESSION_TTL_MS).toBe(3_600_000)
    expect(section).toContain('| Idle time before a session is dropped | 1 hour |')
    expect(section).toContain(
      `| Sessions alive at once, \`default\` included | ${DEFAULT_MAX_SESSIONS.toLocaleString('en-US')} |`,
    )
    expect(SESSION_ID.source).toBe('^[A-Za-z0-9._-]{1,64}$')
    expect(section).toContain('1 to 64\ncharacters of `A-Z a-z 0-9 . _ -`')
  })
})
