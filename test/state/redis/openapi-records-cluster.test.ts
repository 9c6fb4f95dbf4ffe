import { afterAll, beforeAll } from 'vitest'
import { createSandboxServer, type SandboxServer } from '../../../src/server/index.js'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'
import { defineOpenApiRecordsSuite } from './openapi-records.suite.js'

// The document's records on a real Redis Cluster (three masters, three
// replicas): a session's records share its hash tag, so each collection's
// scripts run on one node; two instances answer as one sandbox.
let cluster: TestCluster
let apps: SandboxServer<string>[] = []
const origins: string[] = []

beforeAll(async () => {
  cluster = await startTestCluster()
  apps = [0, 1].map(() =>
    createSandboxServer({ store: cluster.url, openapi: 'examples/openapi/petstore-extras.yaml' }),
  )
  for (const app of apps) origins.push((await app.listen(0)).url)
}, 60_000)
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
  await cluster?.dispose()
})

defineOpenApiRecordsSuite(() => ({ a: origins[0] as string, b: origins[1] as string }))
