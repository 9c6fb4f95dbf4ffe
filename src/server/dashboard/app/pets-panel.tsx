import { useEffect, useRef, useState } from 'preact/hooks'
import { call } from './api.js'
import { ErrorLine, useAction } from './use-action.js'

interface Pet {
  id: number
  name: string
  categoryId: number
  status: string
}
interface PetPage {
  pets: Pet[]
  total: number
  nextAfter: number | null
  /** The position of the page's first pet (0-based), kept with the pets it counts. */
  first?: number
}

const PAGE = 10

/** The pets of the default store: page through them, filter by status. */
export const PetsPanel = (props: { version: number }) => {
  const [status, setStatus] = useState('')
  // The ids each page starts after: [0] is the first page.
  const [starts, setStarts] = useState<number[]>([0])
  const [page, setPage] = useState<PetPage>()
  const action = useAction()
  const after = starts[starts.length - 1] ?? 0
  // Only the newest request may fill the table: answers can arrive out of order.
  const latest = useRef(0)

  useEffect(() => {
    void props.version
    const query = new URLSearchParams({ limit: String(PAGE), after: String(after) })
    if (status !== '') query.set('status', status)
    const first = (starts.length - 1) * PAGE
    const request = ++latest.current
    void action.run(async () => {
      const found = await call<PetPage>('GET', `/pets?${query}`)
      if (request === latest.current) setPage({ ...found, first })
    })
  }, [status, after, props.version])

  const first = page?.first ?? 0
  return (
    <section class="panel" aria-labelledby="pets-title">
      <div class="panel-head">
        <h2 id="pets-title">Pets</h2>
        <span class="muted">default store</span>
      </div>
      <div class="row">
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value)
              setStarts([0])
            }}
          >
            <option value="">all</option>
            <option value="available">available</option>
            <option value="pending">pending</option>
            <option value="sold">sold</option>
          </select>
        </label>
        <span class="muted" aria-live="polite">
          {page === undefined
            ? ''
            : page.total === 0
              ? 'no pets'
              : `${first + 1}–${first + page.pets.length} of ${page.total}`}
        </span>
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">id</th>
              <th scope="col">name</th>
              <th scope="col">category</th>
              <th scope="col">status</th>
            </tr>
          </thead>
          <tbody>
            {page?.pets.map((p) => (
              <tr key={p.id}>
                <td>{p.id}</td>
                <td>{p.name}</td>
                <td>{p.categoryId}</td>
                <td>{p.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="buttons">
        <button
          type="button"
          disabled={starts.length === 1}
          onClick={() => setStarts((s) => s.slice(0, -1))}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={page?.nextAfter == null}
          onClick={() =>
            page?.nextAfter != null && setStarts((s) => [...s, page.nextAfter as number])
          }
        >
          Next
        </button>
      </div>
      <ErrorLine error={action.error} />
    </section>
  )
}
