import { afterAll, beforeAll } from 'vitest'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'
import { defineConformanceSuite } from '../parts/define-conformance-suite.js'
import { createMultiInstanceTarget, type MultiInstanceTarget } from './redis-target.js'

// The conformance suite over real HTTP against two servers on a real Redis
// Cluster (three masters, three replicas), requests and control calls
// alternating between them.
let cluster: TestCluster
let target: MultiInstanceTarget
beforeAll(async () => {
  cluster = await startTestCluster()
  target = createMultiInstanceTarget(2, { store: cluster.url })
  await target.start()
}, 60_000)
afterAll(async () => {
  await target?.stop()
  await cluster?.dispose()
})
defineConformanceSuite(() => target)
