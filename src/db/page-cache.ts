import type { ListPetsQuery, PetPage } from './pet-records.js'

/** Pages a store remembers between changes (then it starts over). */
const PAGE_CACHE_SIZE = 256

/**
 * The pages a store read since its last change, by query: the same query
 * answers the same page object, so a client polling a list costs neither a
 * slice nor, in the operation that serializes it, a new body (decision 0021).
 * The in-memory store and an instance's copy of a session's pets on Redis
 * keep one each; the store clears it on every change.
 *
 * @example
 * const pages = new PageCache()
 * const page = pages.get(query, (q) => store.readPage(q))
 */
export class PageCache {
  private readonly pages = new Map<string, PetPage>()

  get(query: ListPetsQuery, read: (query: ListPetsQuery) => PetPage): PetPage {
    const key = `${query.status ?? ''}|${query.afterId ?? ''}|${query.offset ?? ''}|${query.limit}`
    let page = this.pages.get(key)
    if (page === undefined) {
      if (this.pages.size >= PAGE_CACHE_SIZE) this.pages.clear()
      page = read(query)
      this.pages.set(key, page)
    }
    return page
  }

  clear(): void {
    if (this.pages.size > 0) this.pages.clear()
  }
}
