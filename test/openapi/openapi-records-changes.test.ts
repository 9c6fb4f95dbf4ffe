import { describe, expect, it } from 'vitest'
import {
  changesFromWhole,
  changesOverSeed,
  layerOverSeed,
  layerWithChanges,
  type StoredRecord,
} from '../../src/openapi/openapi-records.js'

// A session's records as changes over the frozen seed, made again from a data file's
// changes (version 5) or from its whole collections (versions 3 and 4): decision 0068.
const record = (seq: number, name: string): StoredRecord => ({ seq, value: { id: seq, name } })
const seed = {
  byId: new Map(['1', '2', '3'].map((id) => [id, record(Number(id), `seeded ${id}`)])),
  nextSeq: 4,
}

describe('changes over the seed', () => {
  it('are what a layer holds: created, replaced, deleted, never an untouched seeded record', () => {
    const layer = layerOverSeed(seed)
    layer.byId.set('2', record(2, 'replaced'))
    layer.byId.delete('3')
    layer.byId.set('4', record(4, 'created'))
    layer.nextSeq = 5
    const changes = changesOverSeed(layer)
    expect(changes?.nextSeq).toBe(5)
    expect([...(changes?.changes ?? [])]).toEqual([
      ['2', record(2, 'replaced')],
      ['3', null],
      ['4', record(4, 'created')],
    ])
    // Records not laid over a seed have none.
    expect(changesOverSeed({ byId: new Map(), nextSeq: 1 })).toBeUndefined()
  })

  it('made again from them give the same records, in the same order', () => {
    const layer = layerOverSeed(seed)
    layer.byId.set('5', record(5, 'created'))
    layer.byId.set('1', record(1, 'replaced'))
    layer.byId.delete('2')
    layer.nextSeq = 6
    const again = layerWithChanges(
      seed,
      changesOverSeed(layer) ?? { nextSeq: 0, changes: new Map() },
    )
    expect([...again.byId.values()]).toEqual([...layer.byId.values()])
    expect(again.nextSeq).toBe(6)
  })

  it('never reuse a place: the next is past the seed, the file’s and every change', () => {
    const again = layerWithChanges(seed, {
      nextSeq: 2,
      changes: new Map([
        ['9', record(9, 'created')],
        // A deleted id the seed does not have is nothing to delete.
        ['77', null],
      ]),
    })
    expect(again.nextSeq).toBe(10)
    expect([...again.byId.values()].map((r) => r.seq)).toEqual([1, 2, 3, 9])
    expect(changesOverSeed(again)?.changes.has('77')).toBe(false)
  })

  it('are found in whole records: what differs from the seed in place or JSON, and the ids they lack', () => {
    const whole = new Map<string, StoredRecord>([
      ['1', record(1, 'seeded 1')],
      ['2', { seq: 2, value: { id: 2, name: 'seeded 2', extra: true } }],
      ['4', record(4, 'created')],
    ])
    const changes = changesFromWhole(seed, { byId: whole, nextSeq: 5 })
    expect(changes.nextSeq).toBe(5)
    expect([...changes.changes]).toEqual([
      ['2', whole.get('2')],
      ['4', whole.get('4')],
      ['3', null],
    ])
    // The same record at another place is a change too.
    const moved = changesFromWhole(seed, {
      byId: new Map([...seed.byId].map(([id, r]) => [id, id === '1' ? { ...r, seq: 7 } : r])),
      nextSeq: 8,
    })
    expect([...moved.changes.keys()]).toEqual(['1'])
  })
})
