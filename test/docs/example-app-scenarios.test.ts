import { describe, expect, it } from 'vitest'
import { BUILT_IN_SCENARIOS as APP_SCENARIOS } from '../../examples/app/src/scenario-names.js'
import { createSandbox } from '../../src/index.js'

describe('the example app', () => {
  it('offers exactly the built-in scenarios in its picker, in the registry order', () => {
    const names = createSandbox()
      .scenario.list()
      .map((s) => s.name)
    expect([...APP_SCENARIOS]).toEqual(names)
  })
})
