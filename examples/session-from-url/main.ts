import { sessionFromUrl, withSession } from './session-api.js'

// A tiny pet list that runs in whichever sandbox session its page URL names:
// open /?session=alice in one tab and /?session=bob in another, and each sees
// only its own pets. Without ?session= it uses the sandbox's `default`.
// `?api=http://127.0.0.1:4010/v1` points it at a sandbox on another origin.
const API_BASE = new URL(location.href).searchParams.get('api') ?? '/v1'
const AUTH = { authorization: 'Bearer sandbox-free' }

const session = sessionFromUrl(location.href)
const api = withSession(session)

const render = async (): Promise<void> => {
  const response = await api(`${API_BASE}/pets?limit=100`, { headers: AUTH })
  const pets = (await response.json()) as { id: number; name: string }[]
  const list = document.querySelector('#pets') as HTMLUListElement
  list.replaceChildren(
    ...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })),
  )
  document.body.dataset.total = response.headers.get('x-total-count') ?? ''
}

const addPet = async (): Promise<void> => {
  await api(`${API_BASE}/pets`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `${session ?? 'default'}'s pet`, categoryId: 1 }),
  })
  await render()
}

document.querySelector('#session')?.append(session ?? 'default')
document.querySelector('#add')?.addEventListener('click', () => void addPet())
void render()
