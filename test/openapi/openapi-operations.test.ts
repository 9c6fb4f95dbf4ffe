import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/contract/error-codes.js'
import { openApiDocument as doc, type JsonObject } from './openapi-document.js'

// The standalone server's HTTP layer answers these before any route (contract §15): no
// rate-limit or deprecation headers (test/server checks the server sends none).
const BEFORE_ROUTING = new Set<number>(
  (['uri_too_long', 'expectation_failed', 'header_too_large', 'not_implemented'] as const).map(
    (code) => ERROR_CODES[code],
  ),
)

const isApiOperation = (template: string): boolean =>
  !template.startsWith('/__sandbox') && !template.startsWith('/portal/')
/** The admin's account routes (contract §22): the admin token only, as accounts need one. */
const isAccountAdmin = (template: string): boolean =>
  template === '/__sandbox/invites' || template.startsWith('/__sandbox/accounts')
// proxy-error's 502 is a gateway's page (contract §19): none of the API's headers.
const isGatewayPage = (response: JsonObject): boolean =>
  doc.isObject(response.content) && response.content['text/html; charset=utf-8'] !== undefined
const responses = () => doc.responses()
const apiResponses = () => responses().filter(({ response }) => !isGatewayPage(response))

describe('the headers and parameters of the OpenAPI document', () => {
  const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
  const headersOf = (response: JsonObject): JsonObject =>
    doc.isObject(response.headers) ? response.headers : {}
  const requiredHeaders = (response: JsonObject): string[] => {
    const headers = doc.inline(headersOf(response))
    if (!doc.isObject(headers)) return []
    return Object.keys(headers).filter((name) => {
      const header = headers[name]
      return doc.isObject(header) && header.required === true
    })
  }

  it('declares exactly listPets, createPet and getPet below /v1', () => {
    const api = doc.operations().filter(({ template }) => isApiOperation(template))
    expect(api.map((o) => o.operation.operationId)).toEqual(['listPets', 'createPet', 'getPet'])
  })

  it('requires integer rate-limit headers on every response below /v1 but those answered before routing', () => {
    for (const { template, where, status, response } of apiResponses()) {
      if (!isApiOperation(template) || BEFORE_ROUTING.has(Number(status))) continue
      for (const name of RATE_LIMIT) {
        expect(doc.inline(headersOf(response)[name]), `${where} ${name}`).toMatchObject({
          required: true,
          schema: { type: 'integer' },
        })
      }
    }
  })

  it('requires the deprecation headers on every routed response of getPet, and not on another method’s 405', () => {
    const getPet = apiResponses().filter((r) => r.where.startsWith('getPet '))
    const routed = getPet.filter(
      (r) => !r.where.endsWith(' 405') && !BEFORE_ROUTING.has(Number(r.status)),
    )
    for (const { where, response } of routed) {
      expect(requiredHeaders(response), where).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
      )
    }
    const notAllowed = getPet.find((r) => r.where.endsWith(' 405'))
    expect(notAllowed).toBeDefined()
    expect(requiredHeaders(notAllowed?.response ?? {})).not.toContain('Deprecation')
  })

  it('requires WWW-Authenticate on 401, Allow on 405, Retry-After on 429 and 503', () => {
    const expected: Record<string, string> = {
      '401': 'WWW-Authenticate',
      '405': 'Allow',
      '429': 'Retry-After',
      '503': 'Retry-After',
    }
    for (const { where, status, response } of responses()) {
      const name = expected[status]
      if (name !== undefined) expect(requiredHeaders(response), where).toContain(name)
    }
    expect(doc.at('/components/headers/Retry-After')).toMatchObject({
      schema: { type: 'integer', minimum: 1 },
    })
  })

  it('takes the API key and the sandbox extensions on every operation below /v1', () => {
    for (const { template, operation, pathItem } of doc.operations()) {
      if (!isApiOperation(template)) continue
      expect(operation.security, template).toEqual([{ apiKey: [] }])
      const parameters = doc.inline([
        ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ]) as JsonObject[]
      expect(
        parameters.map((p) => `${String(p.in)} ${String(p.name)}`),
        template,
      ).toEqual(
        expect.arrayContaining(['query __scenario', 'query __delay', 'header X-Sandbox-Scenario']),
      )
    }
  })

  it('serves the control API outside /v1, without an API key', () => {
    const control = doc
      .operations()
      .filter(({ template }) => template.startsWith('/__sandbox') && !isAccountAdmin(template))
    expect(control.length).toBeGreaterThanOrEqual(12)
    for (const { template, operation, pathItem } of control) {
      expect(pathItem.servers, template).toEqual([
        expect.objectContaining({ url: 'http://127.0.0.1:4010' }),
      ])
      // The dashboard's and the API reference's pages and files carry no data: no admin token.
      const open = [
        '/__sandbox/',
        '/__sandbox/assets/{name}',
        '/__sandbox/docs',
        '/__sandbox/docs/assets/{name}',
      ].includes(template)
      expect(operation.security, template).toEqual(open ? [{}] : [{}, { adminToken: [] }])
      expect(operation.tags, template).toEqual(['sandbox-control'])
    }
  })

  it('serves the account API under /portal/api and the admin account routes with the admin token (contract §22)', () => {
    const accounts = doc
      .operations()
      .filter(({ template }) => template.startsWith('/portal/') || isAccountAdmin(template))
    expect(accounts.map(({ template }) => template)).toEqual(
      expect.arrayContaining([
        '/portal/api/signup',
        '/portal/api/keys/{id}/roll',
        '/__sandbox/accounts',
      ]),
    )
    for (const { template, operation, pathItem } of accounts) {
      expect(pathItem.servers, template).toEqual([
        expect.objectContaining({ url: 'http://127.0.0.1:4010' }),
      ])
      expect(operation.tags, template).toEqual(['accounts'])
      const open = ['/portal/api/signup', '/portal/api/login'].includes(template)
      expect(operation.security, template).toEqual(
        isAccountAdmin(template) ? [{ adminToken: [] }] : open ? [{}] : [{ portalCookie: [] }],
      )
    }
  })
})
