import type { ApiClient, ApiProblem, ApiResult, Pet } from './create-api-client.js'

export interface MountAppOptions {
  api: ApiClient
  /** One line saying where requests go. */
  mode: string
  /** Scenario names for the picker. */
  scenarios: readonly string[]
  /** Set in worker mode: puts the sandbox back to its seeded state. */
  resetSandbox?: () => Promise<void>
}

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`Failed to mount the app: #${id} is missing from the page.`)
  return element as T
}

/** A text-only element: pet names never reach innerHTML. */
const cell = (tag: string, text: string, className?: string): HTMLElement => {
  const element = document.createElement(tag)
  element.textContent = text
  if (className !== undefined) element.className = className
  return element
}

/**
 * Wires the page: the pet list with paging and a status filter, the scenario
 * picker, the create and find forms, the rate-limit line and the error box.
 *
 * @example
 * await mountApp({ api, mode: 'Mock Service Worker', scenarios: ['default', 'empty'] })
 */
export const mountApp = async (options: MountAppOptions): Promise<void> => {
  const { api } = options
  const scenarioSelect = byId<HTMLSelectElement>('scenario')
  const statusSelect = byId<HTMLSelectElement>('status-filter')
  const nextButton = byId<HTMLButtonElement>('next-page')
  const resetButton = byId<HTMLButtonElement>('reset')
  let nextUrl: string | undefined

  byId('mode').textContent = options.mode
  for (const name of options.scenarios) scenarioSelect.append(new Option(name, name))

  const showProblem = (problem: ApiProblem | undefined): void => {
    byId('error').hidden = problem === undefined
    byId('error-code').textContent =
      problem === undefined ? '' : `${problem.status || 'Network'} ${problem.code}`
    byId('error-message').textContent = problem?.message ?? ''
  }

  const showResult = (result: ApiResult<unknown>): void => {
    showProblem(result.problem)
    if (result.rateLimit.remaining !== null) {
      byId('rate-remaining').textContent = result.rateLimit.remaining
      byId('rate-max').textContent = result.rateLimit.limit ?? '–'
    }
  }

  const showPets = (pets: readonly Pet[], emptyText = 'No pets.'): void => {
    const rows = pets.map((pet) => {
      const row = document.createElement('tr')
      row.append(
        cell('td', String(pet.id)),
        cell('td', pet.name),
        cell('td', pet.status, `status-${pet.status}`),
        cell('td', String(pet.categoryId)),
      )
      return row
    })
    if (rows.length === 0) {
      const row = document.createElement('tr')
      const empty = cell('td', emptyText, 'muted')
      empty.setAttribute('colspan', '4')
      row.append(empty)
      rows.push(row)
    }
    byId('pets').replaceChildren(...rows)
  }

  const loadPets = async (pageUrl?: string): Promise<void> => {
    const query = pageUrl === undefined ? { status: statusSelect.value } : { pageUrl }
    const result = await api.listPets(query)
    showResult(result)
    if (result.problem !== undefined) {
      showPets([], 'Not loaded: see the error above.')
      byId('page-info').textContent = ''
      nextUrl = undefined
    } else {
      const pets = result.data ?? []
      showPets(pets)
      nextUrl = result.nextUrl
      const first = pets[0]?.id
      const last = pets[pets.length - 1]?.id
      byId('page-info').textContent =
        first === undefined ? '0 pets' : `Pets #${first}–#${last} of ${result.total ?? '?'}`
    }
    nextButton.disabled = nextUrl === undefined
    document.body.dataset.state = result.problem === undefined ? 'loaded' : 'failed'
  }

  statusSelect.addEventListener('change', () => void loadPets())
  scenarioSelect.addEventListener('change', () => void loadPets())
  byId('reload').addEventListener('click', () => void loadPets())
  byId('first-page').addEventListener('click', () => void loadPets())
  nextButton.addEventListener('click', () => void loadPets(nextUrl))

  const { resetSandbox } = options
  if (resetSandbox !== undefined) {
    resetButton.hidden = false
    resetButton.addEventListener('click', async () => {
      await resetSandbox()
      scenarioSelect.value = ''
      await loadPets()
    })
  }

  byId<HTMLFormElement>('create-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const result = await api.createPet({
      name: String(form.get('name') ?? ''),
      categoryId: Number(form.get('categoryId')),
      status: String(form.get('status') ?? 'available'),
    })
    showResult(result)
    byId('create-result').textContent =
      result.data === undefined
        ? 'Not added.'
        : `Added #${result.data.id} ${result.data.name} (${result.data.status}).`
  })

  byId<HTMLFormElement>('get-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    const id = String(new FormData(event.currentTarget as HTMLFormElement).get('id') ?? '')
    const result = await api.getPet(id)
    showResult(result)
    const pet = result.data
    byId('pet-details').textContent =
      pet === undefined
        ? 'No pet shown.'
        : `#${pet.id} ${pet.name}, ${pet.status}, category ${pet.categoryId}` +
          (result.sunset === null ? '' : ` (this operation ends on ${result.sunset})`)
  })

  await loadPets()
}
