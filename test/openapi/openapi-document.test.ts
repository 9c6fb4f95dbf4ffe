import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ERROR_CODE_SCOPES } from '../../src/contract/error-codes.js'
import {
  ERROR_CODES,
  ErrorBodySchema,
  LIMITS,
  NewPetSchema,
  PET_STATUSES,
  PetSchema,
  PLAN_NAMES,
} from '../../src/contract/index.js'
import { MAX_DELAY_MS } from '../../src/scenarios/read-delay-param.js'
import { BUILT_IN_SCENARIOS } from '../../src/scenarios/scenario-registry.js'
import { openApiDocument as doc, type JsonObject } from './openapi-document.js'

// The keywords both descriptions must agree on; annotations (description, format) may differ.
const KEYWORDS = ['type', 'enum', 'const', 'minimum', 'maximum', 'default', 'required']

/** A schema reduced to the keywords that constrain values, for comparing the document with zod. */
const project = (schema: unknown): unknown => {
  if (!doc.isObject(schema)) return schema
  const out: JsonObject = {}
  for (const key of KEYWORDS) if (key in schema) out[key] = schema[key]
  if (Array.isArray(out.required)) out.required = [...out.required].sort()
  // zod writes int() as the safe-integer range; the document says `integer` and leaves it implied.
  if (out.minimum === -Number.MAX_SAFE_INTEGER && out.maximum === Number.MAX_SAFE_INTEGER) {
    delete out.minimum
    delete out.maximum
  }
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = project(schema.additionalProperties)
  }
  if (schema.items !== undefined) out.items = project(schema.items)
  if (doc.isObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, value]) => [name, project(value)]),
    )
  }
  return out
}

const component = (name: string): unknown => doc.inline(doc.at(`/components/schemas/${name}`))

/** The `code` enum and `status` const an error schema narrows `Error` to, or undefined for another schema. */
const errorNarrowing = (schema: JsonObject): { codes: string[]; status: unknown } | undefined => {
  // A status with codes of two shapes (getPet's 404: pet_not_found, replay_miss): one of two narrowings.
  if (Array.isArray(schema.oneOf)) {
    const each = schema.oneOf.map((member) =>
      doc.isObject(member) ? errorNarrowing(doc.at(String(member.$ref).slice(1))) : undefined,
    )
    if (each.some((n) => n === undefined) || new Set(each.map((n) => n?.status)).size !== 1)
      return undefined
    return { codes: each.flatMap((n) => n?.codes ?? []), status: each[0]?.status }
  }
  const parts = Array.isArray(schema.allOf) ? schema.allOf.filter(doc.isObject) : []
  if (!parts.some((part) => part.$ref === '#/components/schemas/Error')) return undefined
  const properties = parts.map((part) => part.properties).find(doc.isObject)
  const code = doc.isObject(properties?.code) ? properties.code : {}
  const status = doc.isObject(properties?.status) ? properties.status : {}
  return { codes: Array.isArray(code.enum) ? code.enum.map(String) : [], status: status.const }
}

describe('the OpenAPI document agrees with src/contract', () => {
  it('describes NewPet as NewPetSchema accepts it (z.toJSONSchema, io: input)', () => {
    expect(project(component('NewPet'))).toEqual(
      project(z.toJSONSchema(NewPetSchema, { io: 'input' })),
    )
  })

  it('describes Pet as PetSchema', () => {
    expect(project(component('Pet'))).toEqual(project(z.toJSONSchema(PetSchema)))
  })

  it('describes Error as ErrorBodySchema', () => {
    expect(project(component('Error'))).toEqual(project(z.toJSONSchema(ErrorBodySchema)))
  })

  it('bounds pet names in code points as LIMITS does, in NewPet and Pet', () => {
    for (const name of ['NewPet', 'Pet']) {
      expect(component(name), name).toMatchObject({
        properties: {
          name: {
            type: 'string',
            minLength: LIMITS.nameMinCodePoints,
            maxLength: LIMITS.nameMaxCodePoints,
          },
        },
      })
    }
  })

  it('bounds ids from 1 to LIMITS.maxId, petId included', () => {
    const id = { type: 'integer', minimum: 1, maximum: LIMITS.maxId }
    expect(component('Id')).toMatchObject(id)
    expect(doc.inline(doc.at('/components/parameters/PetId'))).toMatchObject({ schema: id })
  })

  it('bounds limit as LIMITS does', () => {
    expect(doc.at('/components/parameters/Limit')).toMatchObject({
      name: 'limit',
      in: 'query',
      schema: {
        type: 'integer',
        minimum: LIMITS.listLimitMin,
        maximum: LIMITS.listLimitMax,
        default: LIMITS.listLimitDefault,
      },
    })
  })

  it('lists PET_STATUSES wherever a status is described', () => {
    expect(component('PetStatus')).toMatchObject({ type: 'string', enum: [...PET_STATUSES] })
    expect(doc.inline(doc.at('/components/parameters/Status'))).toMatchObject({
      schema: { enum: [...PET_STATUSES] },
    })
    for (const name of ['NewPet', 'Pet']) {
      expect(component(name)).toMatchObject({ properties: { status: { enum: [...PET_STATUSES] } } })
    }
  })

  it('lists PLAN_NAMES as the plans of the control API', () => {
    expect(component('SandboxPlan')).toMatchObject({ enum: [...PLAN_NAMES] })
  })

  it('bounds __delay as the slow scenario reads it', () => {
    expect(doc.at('/components/parameters/Delay')).toMatchObject({
      name: '__delay',
      schema: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS },
    })
  })

  it('names exactly the built-in scenarios in the __scenario description', () => {
    const description = String(doc.at('/components/parameters/Scenario').description)
    const named = [...description.matchAll(/`([a-z0-9-]+)` \(/g)].map((m) => m[1])
    expect(named.sort()).toEqual(BUILT_IN_SCENARIOS.map((s) => s.name).sort())
  })
})

describe('the error codes of the OpenAPI document', () => {
  const narrowings = [
    ...doc.responses().flatMap(({ where, status, response }) => {
      const content = doc.isObject(response.content) ? response.content : {}
      const media = doc.isObject(content['application/json']) ? content['application/json'] : {}
      const schema = doc.isObject(media.schema) ? doc.at(String(media.schema.$ref).slice(1)) : {}
      const narrowing = errorNarrowing(schema)
      // proxy-error's 502 is a gateway's HTML page, not the API's Error body (contract §19).
      if (content['text/html; charset=utf-8'] !== undefined) return []
      return Number(status) >= 400 ? [{ where, status: Number(status), narrowing }] : []
    }),
    ...Object.entries(doc.at('/components/schemas')).flatMap(([name, schema]) => {
      const narrowing = doc.isObject(schema) ? errorNarrowing(schema) : undefined
      return narrowing === undefined ? [] : [{ where: name, status: narrowing.status, narrowing }]
    }),
  ]

  it('narrows every error response to its status and a list of codes', () => {
    for (const { where, status, narrowing } of narrowings) {
      expect(narrowing, where).toBeDefined()
      expect(narrowing?.status, where).toBe(status)
      expect(narrowing?.codes.length, where).toBeGreaterThan(0)
    }
  })

  it('gives every code of ERROR_CODES, under its status and no other', () => {
    const found = new Map<string, Set<unknown>>()
    for (const { narrowing } of narrowings) {
      for (const code of narrowing?.codes ?? []) {
        found.set(code, (found.get(code) ?? new Set()).add(narrowing?.status))
      }
    }
    // A code only operations added from the user's document answer (`not_found`, contract §20)
    // belongs to that document, not to the sandbox's own (which no operation of it answers).
    const expected = Object.entries(ERROR_CODES)
      .filter(([code]) => ERROR_CODE_SCOPES[code as keyof typeof ERROR_CODES] !== 'added')
      .map(([code, status]) => [code, [status]])
    const actual = [...found].map(([code, statuses]) => [code, [...statuses]])
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected))
  })
})
