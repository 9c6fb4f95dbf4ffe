import { useEffect, useState } from 'preact/hooks'

interface Pet {
  id: number
  name: string
  status: string
}

/** What the component shows: each state a client of the Pet Store API must handle. */
type View =
  | { kind: 'loading' }
  | { kind: 'pets'; pets: Pet[]; detail: string }
  | { kind: 'problem'; title: string; text: string }

interface ErrorBody {
  code?: string
  message?: string
}

const retryIn = (response: Response): string => {
  const seconds = response.headers.get('Retry-After')
  return seconds === null ? 'later' : `in ${seconds} s`
}

/** The words a user sees for an answer that is not a success. */
const problemOf = async (response: Response): Promise<View> => {
  const body = (await response.json().catch(() => ({}))) as ErrorBody
  if (response.status === 429 && body.code === 'api_key_banned')
    return { kind: 'problem', title: 'Access suspended', text: 'This API key is banned.' }
  if (response.status === 429)
    return {
      kind: 'problem',
      title: 'Slow down',
      text: `Too many requests. Try again ${retryIn(response)}.`,
    }
  if (response.status === 503)
    return {
      kind: 'problem',
      title: 'Pet store unavailable',
      text: `The service is down for a moment. Try again ${retryIn(response)}.`,
    }
  return {
    kind: 'problem',
    title: `Error ${response.status}`,
    text: body.message ?? 'Something went wrong.',
  }
}

/** The first pet's details, from the deprecated fetch-by-id (410 once it is sunset). */
const detailOf = async (pet: Pet, headers: HeadersInit): Promise<string> => {
  const response = await fetch(`/v1/pets/${pet.id}`, { headers })
  if (response.status === 410)
    return `Details are retired (410 Gone, sunset ${response.headers.get('Sunset') ?? 'passed'}).`
  if (!response.ok) return `Details unavailable (${response.status}).`
  const full = (await response.json()) as Pet
  return `${full.name} is ${full.status}.`
}

/**
 * Lists the first pets of the Pet Store API and the first one's details, with
 * a state for each answer a client must handle: empty, rate-limited, banned,
 * unavailable, and the fetch-by-id's sunset.
 */
export const PetBrowser = (props: { apiKey?: string; limit?: number }) => {
  const [view, setView] = useState<View>({ kind: 'loading' })
  const apiKey = props.apiKey ?? 'sandbox-free'
  const limit = props.limit ?? 5
  useEffect(() => {
    let live = true
    const headers = { Authorization: `Bearer ${apiKey}` }
    const load = async (): Promise<View> => {
      const response = await fetch(`/v1/pets?limit=${limit}`, { headers })
      if (!response.ok) return problemOf(response)
      const pets = (await response.json()) as Pet[]
      const first = pets[0]
      return { kind: 'pets', pets, detail: first ? await detailOf(first, headers) : '' }
    }
    load().then(
      (next) => live && setView(next),
      () => live && setView({ kind: 'problem', title: 'Offline', text: 'No answer from the API.' }),
    )
    return () => {
      live = false
    }
  }, [apiKey, limit])

  if (view.kind === 'loading') return <p aria-busy="true">Loading pets…</p>
  if (view.kind === 'problem')
    return (
      <section role="alert" class="problem">
        <h2>{view.title}</h2>
        <p>{view.text}</p>
      </section>
    )
  if (view.pets.length === 0) return <p class="empty">No pets yet.</p>
  return (
    <section>
      <h2>Pets</h2>
      <ul>
        {view.pets.map((pet) => (
          <li key={pet.id}>
            {pet.name} <small>({pet.status})</small>
          </li>
        ))}
      </ul>
      <p class="detail">{view.detail}</p>
    </section>
  )
}
