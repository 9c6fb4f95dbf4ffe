import { PLAN_NAMES } from '../../../contract/plans.js'
import { ControlError, call, readToken, saveToken, selectSession } from '../../dashboard/app/api.js'
import {
  type CreatedKey,
  loadCreatedKeys,
  SESSION_ID,
  saveCreatedKey,
  saveSettings,
  type TryItSettings,
} from './settings.js'

/** A key as `GET /__sandbox/keys` lists it (run-time keys masked). */
interface ListedKey {
  key: string
  plan: string
  source: string
  masked?: boolean
}

interface ScenarioList {
  name: string
  scenarios: { name: string; description: string }[]
}

const OTHER = '__other__'

/** An element with text and attributes (never innerHTML: every string is text). */
const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value)
  node.append(...children)
  return node
}

const field = (label: string, control: HTMLElement, hint?: string): HTMLElement =>
  el(
    'label',
    { class: 'docs-field' },
    el('span', {}, label),
    control,
    ...(hint ? [el('small', {}, hint)] : []),
  )

/**
 * The try-it bar above the reference: the key (demo and configured keys in
 * full from the control API, keys created here, or one pasted), the scenario
 * and the session every "Execute" sends, kept in this tab. Mutates `settings`
 * in place: the request interceptor reads it on every request.
 *
 * @example
 * await mountTryItBar(document.getElementById('try-it')!, settings, () => location.reload())
 */
export const mountTryItBar = async (
  root: HTMLElement,
  settings: TryItSettings,
  onToken: () => void,
): Promise<void> => {
  const status = el('p', { class: 'docs-status', role: 'status', id: 'try-it-status' })
  const keySelect = el('select', { id: 'try-key', name: 'key' })
  const otherKey = el('input', {
    id: 'try-key-other',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'paste a key',
    hidden: '',
  })
  const scenarioSelect = el('select', { id: 'try-scenario', name: 'scenario' })
  const sessionInput = el('input', {
    id: 'try-session',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'default',
    pattern: '[A-Za-z0-9._\\-]{1,64}',
    maxlength: '64',
  })
  sessionInput.value = settings.session
  const planSelect = el('select', { id: 'try-plan' })
  for (const plan of PLAN_NAMES) planSelect.append(el('option', { value: plan }, plan))
  const createButton = el('button', { type: 'button', id: 'try-create-key' }, 'Create a key')
  const tokenForm = el('form', { class: 'docs-token', hidden: '' })
  const tokenInput = el('input', { type: 'password', autocomplete: 'off', required: '' })
  tokenForm.append(field('Admin token', tokenInput), el('button', { type: 'submit' }, 'Use'))

  const say = (text: string): void => {
    status.textContent = text
  }
  const failed = (error: unknown): void => {
    if (error instanceof ControlError && error.code === 'forbidden') {
      tokenForm.hidden = false
      say(`${error.message} It stays in this tab only (sessionStorage).`)
    } else say(error instanceof Error ? error.message : String(error))
  }
  const save = (): void => saveSettings(settings)

  const fillKeys = async (): Promise<void> => {
    selectSession(settings.session === '' ? null : settings.session)
    const listed = await call<ListedKey[]>('GET', '/keys').catch((error: unknown) => {
      failed(error)
      return [] as ListedKey[]
    })
    const session = settings.session === '' ? 'default' : settings.session
    const created = loadCreatedKeys().filter((k: CreatedKey) => k.session === session)
    const known = new Set<string>()
    keySelect.replaceChildren(el('option', { value: '' }, 'no key (no Authorization)'))
    const group = (label: string, keys: { key: string; plan: string; disabled?: boolean }[]) => {
      if (keys.length === 0) return
      const node = el('optgroup', { label })
      for (const k of keys) {
        known.add(k.key)
        const option = el('option', { value: k.key }, `${k.key} (${k.plan})`)
        option.disabled = k.disabled === true
        node.append(option)
      }
      keySelect.append(node)
    }
    group(
      'Demo and configured keys',
      listed.filter((k) => k.masked !== true),
    )
    group('Created on this page', created)
    group(
      'Run-time keys (listed masked: paste one)',
      listed
        .filter(
          (k) => k.masked === true && !created.some((c) => c.key.startsWith(k.key.slice(0, -1))),
        )
        .map((k) => ({ ...k, disabled: true })),
    )
    keySelect.append(el('option', { value: OTHER }, 'another key…'))
    const other = settings.key !== '' && !known.has(settings.key)
    keySelect.value = other ? OTHER : settings.key
    otherKey.hidden = !other
    if (other) otherKey.value = settings.key
  }

  const fillScenarios = async (): Promise<void> => {
    const found = await call<ScenarioList>('GET', '/scenario').catch((error: unknown) => {
      failed(error)
      return undefined
    })
    scenarioSelect.replaceChildren(
      el('option', { value: '' }, found ? `sticky (${found.name})` : 'sticky (the session’s)'),
    )
    for (const s of found?.scenarios ?? [])
      scenarioSelect.append(el('option', { value: s.name, title: s.description }, s.name))
    scenarioSelect.value = settings.scenario
    if (scenarioSelect.value !== settings.scenario) settings.scenario = ''
  }

  keySelect.addEventListener('change', () => {
    otherKey.hidden = keySelect.value !== OTHER
    settings.key = keySelect.value === OTHER ? otherKey.value.trim() : keySelect.value
    save()
  })
  otherKey.addEventListener('input', () => {
    settings.key = otherKey.value.trim()
    save()
  })
  scenarioSelect.addEventListener('change', () => {
    settings.scenario = scenarioSelect.value
    save()
  })
  sessionInput.addEventListener('change', () => {
    const id = sessionInput.value.trim()
    if (id !== '' && !SESSION_ID.test(id)) {
      say('A session id is 1-64 characters of A-Z a-z 0-9 . _ -')
      return
    }
    settings.session = id
    save()
    say('')
    void Promise.all([fillKeys(), fillScenarios()])
  })
  createButton.addEventListener('click', () => {
    const session = settings.session === '' ? 'default' : settings.session
    call<CreatedKey>('POST', '/keys', { plan: planSelect.value, session }).then(async (made) => {
      saveCreatedKey({ key: made.key, plan: made.plan, session })
      settings.key = made.key
      save()
      await fillKeys()
      say(`Created ${made.key} (${made.plan}) in session ${session}; try-it sends it now.`)
    }, failed)
  })
  tokenForm.addEventListener('submit', (event) => {
    event.preventDefault()
    if (tokenInput.value.trim() === '') return
    saveToken(tokenInput.value.trim())
    onToken()
  })

  root.replaceChildren(
    el(
      'div',
      { class: 'docs-title' },
      el('h1', {}, 'petstore-sandbox API reference'),
      el('a', { href: '/__sandbox/' }, 'Dashboard'),
      el('a', { href: '/__sandbox/openapi.json' }, 'OpenAPI document'),
    ),
    el(
      'form',
      { class: 'docs-settings', 'aria-label': 'What try-it sends' },
      field('API key', keySelect),
      otherKey,
      field('Scenario', scenarioSelect),
      field('Session', sessionInput),
      el('span', { class: 'docs-create' }, field('New key’s plan', planSelect), createButton),
    ),
    tokenForm,
    status,
  )
  root.querySelector('form')?.addEventListener('submit', (event) => event.preventDefault())
  if (readToken() === null) tokenForm.hidden = true
  await Promise.all([fillKeys(), fillScenarios()])
}
