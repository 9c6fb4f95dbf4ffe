/**
 * An ascending list of ids with binary search: the index behind cursor
 * pagination, so a page costs O(log n + limit) wherever it starts.
 */
export class SortedIds {
  private ids: number[] = []

  get size(): number {
    return this.ids.length
  }

  /** Inserts an id; O(1) for the usual ascending append. */
  insert(id: number): void {
    const last = this.ids[this.ids.length - 1]
    if (last === undefined || id > last) {
      this.ids.push(id)
      return
    }
    const at = this.firstGreaterThan(id - 1)
    if (this.ids[at] !== id) this.ids.splice(at, 0, id)
  }

  /**
   * Replaces the content with these ids (any order, duplicates dropped) in
   * O(n) when they ascend, as a snapshot's do; takes ownership of the array.
   */
  replace(ids: number[]): void {
    let ascending = true
    for (let i = 1; i < ids.length && ascending; i++)
      ascending = (ids[i] as number) > (ids[i - 1] as number)
    if (!ascending) {
      ids.sort((a, b) => a - b)
      let kept = 0
      for (let i = 0; i < ids.length; i++)
        if (kept === 0 || ids[i] !== ids[kept - 1]) ids[kept++] = ids[i] as number
      ids.length = kept
    }
    this.ids = ids
  }

  /** Position of the first id greater than `id`. */
  firstGreaterThan(id: number): number {
    let low = 0
    let high = this.ids.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if ((this.ids[mid] as number) <= id) low = mid + 1
      else high = mid
    }
    return low
  }

  /** Up to `count` ids after `afterId` (from the first when undefined), or from position `offset`. */
  slice(afterId: number | undefined, count: number, offset = 0): number[] {
    const start = afterId === undefined ? offset : this.firstGreaterThan(afterId)
    return this.ids.slice(start, start + count)
  }

  clear(): void {
    this.ids = []
  }
}
