import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, control, portalClient, startAccountsServer } from './account-helpers.js'

// A security review of accounts (contract §22): what one account holder may not reach.
let server: Awaited<ReturnType<typeof startAccountsServer>>
let key = ''

beforeAll(async () => {
  server = await startAccountsServer({ keys: { 'operator-partner-secret': 'enterprise' } })
  const mallory = portalClient(server.origin)
  await mallory.signup('mallory@example.com')
  key = String((await mallory.api('POST', '/keys', { name: 'm', plan: 'free' })).body?.key)
})
afterAll(() => server.close())

describe('an account holder and the keys of the operator', () => {
  it("never reads a key of the server's options through GET /__sandbox/keys", async () => {
    const listed = await control(server.origin, 'GET', '/keys', key)
    expect(listed.status).toBe(200)
    expect(JSON.stringify(listed.body)).not.toContain('operator-partner-secret')
    // The admin still sees its own configuration whole.
    const admin = await control(server.origin, 'GET', '/keys', ADMIN)
    expect(JSON.stringify(admin.body)).toContain('operator-partner-secret')
  })
})
