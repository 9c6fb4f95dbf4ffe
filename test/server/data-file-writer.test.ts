import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDataFileWriter } from '../../src/server/data-file/create-data-file-writer.js'
import { dataFileSchema } from '../../src/server/data-file/data-file-schema.js'

describe('the data file writer', () => {
  it('never lets an older snapshot land over a newer one, and coalesces a burst of writes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-writer-')), 'pets.json')
    let nextId = 1
    let snapshots = 0
    const pets: { id: number; name: string; categoryId: number; status: 'available' }[] = []
    const writer = createDataFileWriter(file, () => {
      snapshots++
      return { nextId, pets: [...pets] }
    })
    const writes: Promise<void>[] = []
    for (let i = 0; i < 50; i++) {
      pets.push({ id: nextId, name: `P${nextId}`, categoryId: 1, status: 'available' })
      nextId++
      writes.push(writer.write())
    }
    await Promise.all(writes)
    await writer.flush()
    const onDisk = dataFileSchema().parse(JSON.parse(readFileSync(file, 'utf8')))
    expect(onDisk.pets).toHaveLength(50)
    expect(onDisk.nextId).toBe(51)
    expect(snapshots).toBeLessThanOrEqual(2)
  })
})
