import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { cliHelp } from '../../src/cli/cli-help.js'
import { VERIFY_HELP } from '../../src/cli/verify-help.js'
import { FIDELITY_SETTING_NAMES } from '../../src/contract/fidelity.js'
import { BUILT_IN_SCENARIOS } from '../../src/scenarios/scenario-registry.js'
import { ANSWER_RULES } from '../../src/validation/answer-rules.js'
import { VERIFY_CHECKS } from '../../src/verify/verify-checks.js'

const guide = readFileSync(new URL('../../docs/verify.md', import.meta.url), 'utf8')
// The options table lives in the test-runner guide since the README split (issue 21).
const options = readFileSync(new URL('../../docs/test-runner.md', import.meta.url), 'utf8')
const flagOf = (setting: string) => `--${setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`

describe('the verify guide (docs/verify.md)', () => {
  it.each(Object.keys(VERIFY_CHECKS))('documents the check id %s', (id) => {
    expect(guide).toContain(`| \`${id}\` |`)
  })

  it.each(Object.keys(ANSWER_RULES))('documents the validator rule %s', (rule) => {
    expect(guide).toContain(`\`${rule}\``)
  })

  it.each(FIDELITY_SETTING_NAMES)(
    'documents the setting %s with its flag, in the guide and --help',
    (name) => {
      expect(guide).toContain(`| \`${name}\` |`)
      if (name === 'errorCodes') return
      expect(guide).toContain(`\`${flagOf(name)}\``)
      expect(cliHelp(BUILT_IN_SCENARIOS)).toContain(flagOf(name))
    },
  )

  it('documents every flag of verify, and --help does too', () => {
    for (const flag of [
      '--target',
      '--key',
      '--allow-writes',
      '--max-requests',
      '--timeout',
      '--report json',
      '--report junit',
      '--emit-config',
      '--config',
    ]) {
      expect(guide).toContain(flag)
      expect(VERIFY_HELP).toContain(flag)
    }
    expect(cliHelp(BUILT_IN_SCENARIOS)).toContain('petstore-sandbox verify --target URL --key KEY')
  })

  it('is linked from the options table, which names every fidelity setting', () => {
    const row = options
      .split('\n')
      .find((line) => line.includes('(verify.md)') && line.startsWith('| `'))
    expect(row).toBeDefined()
    for (const name of FIDELITY_SETTING_NAMES) expect(row).toContain(`\`${name}\``)
  })
})
