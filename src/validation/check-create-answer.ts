import type { FidelitySettings } from '../contract/fidelity.js'
import { OWN_WORDS } from '../http/describe-issue.js'
import type { Violation } from './answer-rules.js'
import { AnswerPetSchema, firstIssue } from './spec-schemas.js'

const decoder = new TextDecoder()
const NEW_PET_FIELDS: ReadonlySet<string> = new Set(['name', 'categoryId', 'status'])

export interface CreateAnswer {
  status: number
  /** The parsed body of a 201 (undefined otherwise or when it was not JSON). */
  value: unknown
  requestBody: string | Uint8Array | null | undefined
  fidelity: Partial<FidelitySettings>
}

/** UTF-8 length of a string without encoding it. */
const utf8Length = (text: string): number => {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

const codePoints = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

const parseObject = (body: string | Uint8Array): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(typeof body === 'string' ? body : decoder.decode(body))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * createPet: the created Pet and its echo of the NewPet sent, and, given the
 * fidelity settings, the gaps a create answer shows (`maxBodyBytes`,
 * `defaultStatus`, `nameMaxLength`, `unknownFields`).
 */
export const checkCreateAnswer = (answer: CreateAnswer, out: Violation[]): void => {
  const { status, requestBody, fidelity } = answer
  const maxBodyBytes = fidelity.maxBodyBytes
  if (maxBodyBytes !== undefined && requestBody !== null && requestBody !== undefined) {
    const size = typeof requestBody === 'string' ? utf8Length(requestBody) : requestBody.byteLength
    if (size > maxBodyBytes && status >= 200 && status < 300) {
      out.push({
        rule: 'gap.maxBodyBytes',
        message: `A body of ${size} bytes was accepted; maxBodyBytes ${maxBodyBytes} answers 413.`,
      })
    } else if (size <= maxBodyBytes && status === 413) {
      out.push({
        rule: 'gap.maxBodyBytes',
        message: `A body of ${size} bytes was answered 413; maxBodyBytes is ${maxBodyBytes}.`,
      })
    }
  }
  if (status !== 201 || answer.value === undefined) return
  const parsed = AnswerPetSchema.safeParse(answer.value, OWN_WORDS)
  if (!parsed.success) {
    out.push({
      rule: 'spec.create.body',
      message: `The 201 body is not a Pet: ${firstIssue(parsed.error, answer.value)}.`,
    })
    return
  }
  const pet = parsed.data
  const sent =
    requestBody === null || requestBody === undefined ? undefined : parseObject(requestBody)
  if (sent === undefined) return
  const name = sent.name
  if (typeof name === 'string' && pet.name !== name && pet.name !== name.trim()) {
    out.push({
      rule: 'spec.create.echo',
      message: `The created pet is named ${JSON.stringify(pet.name)}, not ${JSON.stringify(name)} as sent.`,
    })
  }
  if (typeof sent.categoryId === 'number' && pet.categoryId !== sent.categoryId) {
    out.push({
      rule: 'spec.create.echo',
      message: `The created pet has categoryId ${pet.categoryId}, not ${sent.categoryId} as sent.`,
    })
  }
  if (sent.status !== undefined && pet.status !== sent.status) {
    out.push({
      rule: 'spec.create.echo',
      message: `The created pet has status ${JSON.stringify(pet.status)}, not ${JSON.stringify(sent.status)} as sent.`,
    })
  }
  if (
    sent.status === undefined &&
    fidelity.defaultStatus !== undefined &&
    pet.status !== fidelity.defaultStatus
  ) {
    out.push({
      rule: 'gap.defaultStatus',
      message: `A pet created without status got ${JSON.stringify(pet.status)}; defaultStatus is "${fidelity.defaultStatus}".`,
    })
  }
  if (fidelity.nameMaxLength !== undefined && typeof name === 'string') {
    const length = codePoints(name.trim())
    if (length > fidelity.nameMaxLength) {
      out.push({
        rule: 'gap.nameMaxLength',
        message: `A name of ${length} characters was accepted; nameMaxLength is ${fidelity.nameMaxLength}.`,
      })
    }
  }
  if (fidelity.unknownFields === 'reject') {
    for (const field in sent) {
      if (!NEW_PET_FIELDS.has(field)) {
        out.push({
          rule: 'gap.unknownFields',
          message: `A body with the unknown field "${field}" was accepted; unknownFields is "reject".`,
        })
        break
      }
    }
  }
}
