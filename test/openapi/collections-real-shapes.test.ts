import { describe, expect, it } from 'vitest'
import type { OpenApiOperations } from '../../src/openapi/create-openapi-operations.js'
import {
  call,
  type Doc,
  doc,
  expectValidByDocument as expectValid,
  json,
  open,
  ref,
} from './support/small-documents.js'

// Collections shaped as real documents publish them (GitHub agent tasks, Mailchimp automations,
// Asana custom fields, Netlify members and accounts, Stripe bank accounts; decision 0066): a
// record created, then read back by its id and found in its list, each answer checked by a
// plain ajv (./support/small-documents.ts).
const body = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } })
const pathParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
})

const roleOf = (api: OpenApiOperations, id: string) => api.operations.find((o) => o.id === id)?.role

describe('a list is not filtered by its path parameters (GitHub agent tasks)', () => {
  const task = {
    type: 'object',
    required: ['id', 'state'],
    properties: {
      id: { type: 'string' },
      state: { type: 'string', enum: ['queued', 'completed'] },
      owner: { type: 'object', properties: { id: { type: 'integer' }, login: { type: 'string' } } },
    },
  }
  const tasks = doc({
    '/repos/{owner}/{repo}/tasks': {
      parameters: [pathParam('owner'), pathParam('repo')],
      get: {
        operationId: 'listTasks',
        parameters: [{ name: 'state', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': json({
            type: 'object',
            required: ['tasks'],
            properties: { tasks: { type: 'array', items: task } },
          }),
        },
      },
      post: {
        operationId: 'createTask',
        requestBody: body({
          type: 'object',
          required: ['prompt'],
          properties: { prompt: { type: 'string' } },
        }),
        responses: { '201': json(task) },
      },
    },
    '/repos/{owner}/{repo}/tasks/{task_id}': {
      parameters: [pathParam('owner'), pathParam('repo'), pathParam('task_id')],
      get: { operationId: 'getTask', responses: { '200': json(task) } },
    },
  })

  it('lists the created task under /repos/octo/hello/tasks, and still filters by a query parameter', async () => {
    const api = await open(tasks)
    const params = { owner: 'octo', repo: 'hello' }
    const created = call(api, 'createTask', { params, body: { prompt: 'fix it' } })
    expect(created.status).toBe(201)
    const id = (created.json as { id: string }).id
    const listed = call(api, 'listTasks', { params, query: '?limit=100' })
    expectValid(tasks, '/repos/{owner}/{repo}/tasks', 'get', listed)
    const ids = (listed.json as { tasks: { id: string }[] }).tasks.map((t) => t.id)
    expect(ids).toContain(id)
    const state = (created.json as { state: string }).state
    const filtered = call(api, 'listTasks', { params, query: `?limit=100&state=${state}` })
    const states = (filtered.json as { tasks: { state: string }[] }).tasks.map((t) => t.state)
    expect(states.length).toBeGreaterThan(0)
    expect(new Set(states)).toEqual(new Set([state]))
  })
})

describe("a create declared 200 whose answer is another open schema carrying the record's id (Mailchimp automations)", () => {
  const automations = doc(
    {
      '/automations': {
        post: {
          operationId: 'postAutomations',
          requestBody: body({
            type: 'object',
            required: ['recipients'],
            properties: { recipients: { type: 'object' } },
          }),
          responses: { '200': json(ref('Automation')) },
        },
      },
      '/automations/{workflow_id}': {
        get: {
          operationId: 'getAutomation',
          parameters: [pathParam('workflow_id')],
          responses: {
            '200': json(ref('AutomationWorkflow')),
            '404': json({ type: 'object', properties: { detail: { type: 'string' } } }),
          },
        },
      },
    },
    {
      Automation: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['save', 'paused', 'sending'] },
          recipients: { type: 'object' },
        },
      },
      AutomationWorkflow: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['save', 'paused', 'sending'] },
          emails_sent: { type: 'integer' },
        },
      },
    },
  )

  it('creates the record, and the fetch reads it back as created (no 404)', async () => {
    const api = await open(automations)
    expect(roleOf(api, 'postAutomations')).toBe('create')
    const created = call(api, 'postAutomations', { body: { recipients: { list_id: 'a1' } } })
    expect(created.status).toBe(200)
    expectValid(automations, '/automations', 'post', created)
    const id = (created.json as { id: string }).id
    const read = call(api, 'getAutomation', { params: { workflow_id: id } })
    expect(read.status).toBe(200)
    expectValid(automations, '/automations/{workflow_id}', 'get', read)
    expect(read.json).toEqual(created.json)
  })
})

describe("a record whose id is named by the parameter's last word, wrapped in `data` both ways (Asana custom fields)", () => {
  const wrap = (schema: unknown) => ({ type: 'object', properties: { data: schema } })
  const fields = doc(
    {
      '/custom_fields': {
        post: {
          operationId: 'createCustomField',
          requestBody: body(wrap(ref('CustomFieldRequest'))),
          responses: { '201': json(wrap(ref('CustomFieldResponse'))) },
        },
      },
      '/custom_fields/{custom_field_gid}': {
        parameters: [pathParam('custom_field_gid')],
        get: {
          operationId: 'getCustomField',
          responses: { '200': json(wrap(ref('CustomFieldResponse'))) },
        },
        put: {
          operationId: 'updateCustomField',
          requestBody: body(wrap(ref('CustomFieldRequest'))),
          responses: { '200': json(wrap(ref('CustomFieldResponse'))) },
        },
      },
    },
    {
      CustomFieldRequest: {
        type: 'object',
        properties: { name: { type: 'string' }, description: { type: 'string' } },
      },
      CustomFieldResponse: {
        allOf: [
          {
            type: 'object',
            properties: {
              gid: { type: 'string', readOnly: true },
              resource_type: { type: 'string', readOnly: true },
            },
          },
          ref('CustomFieldRequest'),
        ],
      },
    },
  )

  it('keys the records by `gid`, takes the fields inside the body’s `data`, and reads the create back', async () => {
    const api = await open(fields)
    expect(roleOf(api, 'createCustomField')).toBe('create')
    expect(roleOf(api, 'getCustomField')).toBe('fetch')
    const created = call(api, 'createCustomField', { body: { data: { name: 'Priority' } } })
    expect(created.status).toBe(201)
    expectValid(fields, '/custom_fields', 'post', created)
    const record = (created.json as { data: { gid: string; name: string; data?: unknown } }).data
    expect(record.name).toBe('Priority')
    expect(record).not.toHaveProperty('data')
    const read = call(api, 'getCustomField', { params: { custom_field_gid: record.gid } })
    expect(read.status).toBe(200)
    expectValid(fields, '/custom_fields/{custom_field_gid}', 'get', read)
    expect(read.json).toEqual(created.json)
    const replaced = call(api, 'updateCustomField', {
      params: { custom_field_gid: record.gid },
      body: { data: { name: 'Severity' } },
    })
    expectValid(fields, '/custom_fields/{custom_field_gid}', 'put', replaced)
    expect((replaced.json as { data: { gid: string; name: string } }).data).toMatchObject({
      gid: record.gid,
      name: 'Severity',
    })
  })
})

describe('a create and a fetch that answer the record in an array (Netlify members and accounts)', () => {
  const members = { type: 'array', items: ref('member') }
  const netlify = doc(
    {
      '/{account_slug}/members': {
        parameters: [pathParam('account_slug')],
        get: { operationId: 'listMembersForAccount', responses: { '200': json(members) } },
        post: {
          operationId: 'addMemberToAccount',
          requestBody: body({
            type: 'object',
            properties: { email: { type: 'string' }, role: { type: 'string' } },
          }),
          responses: { '200': json(members) },
        },
      },
      '/{account_slug}/members/{member_id}': {
        parameters: [pathParam('account_slug'), pathParam('member_id')],
        get: { operationId: 'getAccountMember', responses: { '200': json(ref('member')) } },
      },
      '/accounts': {
        get: {
          operationId: 'listAccountsForUser',
          responses: { '200': json({ type: 'array', items: ref('account') }) },
        },
        post: {
          operationId: 'createAccount',
          requestBody: body({
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' } },
          }),
          responses: { '201': json(ref('account')) },
        },
      },
      '/accounts/{account_id}': {
        parameters: [pathParam('account_id')],
        get: {
          operationId: 'getAccount',
          responses: { '200': json({ type: 'array', items: ref('account') }) },
        },
      },
    },
    {
      member: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          email: { type: 'string' },
          role: { type: 'string' },
        },
      },
      account: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' } },
      },
    },
  )

  it('adds the member, answers it in an array of one, and fetches and lists it', async () => {
    const api = await open(netlify)
    expect(roleOf(api, 'addMemberToAccount')).toBe('create')
    const params = { account_slug: 'team' }
    const created = call(api, 'addMemberToAccount', {
      params,
      body: { email: 'ada@example.test', role: 'Owner' },
    })
    expect(created.status).toBe(200)
    expectValid(netlify, '/{account_slug}/members', 'post', created)
    const answered = created.json as { id: string; email: string }[]
    expect(answered).toHaveLength(1)
    expect(answered[0]).toMatchObject({ email: 'ada@example.test', role: 'Owner' })
    const id = answered[0]?.id ?? ''
    const read = call(api, 'getAccountMember', { params: { ...params, member_id: id } })
    expect(read.status).toBe(200)
    expect(read.json).toEqual(answered[0])
    const listed = call(api, 'listMembersForAccount', { params, query: '?limit=100' })
    expect((listed.json as { id: string }[]).map((m) => m.id)).toContain(id)
  })

  it('creates an account and fetches it in an array of one, as the document declares', async () => {
    const api = await open(netlify)
    expect(roleOf(api, 'getAccount')).toBe('fetch')
    const created = call(api, 'createAccount', { body: { name: 'Acme' } })
    expect(created.status).toBe(201)
    expectValid(netlify, '/accounts', 'post', created)
    const id = (created.json as { id: string }).id
    const read = call(api, 'getAccount', { params: { account_id: id } })
    expect(read.status).toBe(200)
    expectValid(netlify, '/accounts/{account_id}', 'get', read)
    expect(read.json).toEqual([created.json])
  })

  it('leaves a batch create (an array sent, an array answered) static (Bitbucket annotations)', async () => {
    const batch = doc(
      {
        '/annotations': {
          post: {
            operationId: 'bulkCreate',
            requestBody: body({ type: 'array', items: ref('member') }),
            responses: { '200': json(members) },
          },
        },
        '/annotations/{id}': {
          parameters: [pathParam('id')],
          get: { operationId: 'getAnnotation', responses: { '200': json(ref('member')) } },
        },
      },
      (netlify.components as { schemas: Doc }).schemas,
    )
    const api = await open(batch)
    expect(roleOf(api, 'bulkCreate')).toBe('static')
    expect(roleOf(api, 'getAnnotation')).toBe('fetch')
  })
})

describe('a record of one of several kinds, each with the id (Stripe external accounts: a bank account or a card)', () => {
  const kinds = { anyOf: [ref('bank_account'), ref('card')] }
  const stripe = doc(
    {
      '/accounts/{account}/bank_accounts': {
        parameters: [pathParam('account')],
        post: { operationId: 'PostAccountsAccountBankAccounts', responses: { '200': json(kinds) } },
      },
      '/accounts/{account}/bank_accounts/{id}': {
        parameters: [pathParam('account'), pathParam('id')],
        get: { operationId: 'GetAccountsAccountBankAccountsId', responses: { '200': json(kinds) } },
      },
    },
    {
      bank_account: {
        type: 'object',
        required: ['id', 'object', 'last4', 'country'],
        properties: {
          id: { type: 'string', maxLength: 5000 },
          object: { type: 'string', enum: ['bank_account'] },
          last4: { type: 'string' },
          country: { type: 'string' },
        },
      },
      card: {
        type: 'object',
        required: ['id', 'object', 'brand'],
        properties: {
          id: { type: 'string', maxLength: 5000 },
          object: { type: 'string', enum: ['card'] },
          brand: { type: 'string' },
        },
      },
    },
  )

  it('creates a bank account (the first kind) and reads it back as created', async () => {
    const api = await open(stripe)
    expect(roleOf(api, 'PostAccountsAccountBankAccounts')).toBe('create')
    const params = { account: 'acct_1' }
    const created = call(api, 'PostAccountsAccountBankAccounts', { params })
    expect(created.status).toBe(200)
    expectValid(stripe, '/accounts/{account}/bank_accounts', 'post', created)
    expect(created.json).toMatchObject({ object: 'bank_account' })
    const id = (created.json as { id: string }).id
    const read = call(api, 'GetAccountsAccountBankAccountsId', { params: { ...params, id } })
    expect(read.status).toBe(200)
    expectValid(stripe, '/accounts/{account}/bank_accounts/{id}', 'get', read)
    expect(read.json).toEqual(created.json)
  })
})
