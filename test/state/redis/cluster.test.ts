import { afterAll, beforeAll } from 'vitest'
import {
  createMultiInstanceTarget,
  type MultiInstanceTarget,
} from '../../conformance/targets/redis-target.js'
import { startTestCluster, type TestCluster } from '../../support/redis-cluster.js'
import { defineSharedStateSuite } from './shared-state.suite.js'

// The shared-state suite on a real Redis Cluster (three masters, three
// replicas of Debian's redis-server, created by redis-cli --cluster create),
// through three instances: quotas exact under 300 concurrent requests spread
// over them, ids unique, keys, scenarios, sessions and `flaky` shared.
let cluster: TestCluster
let target: MultiInstanceTarget

beforeAll(async () => {
  cluster = await startTestCluster()
  target = createMultiInstanceTarget(3, { store: cluster.url })
  await target.start()
}, 60_000)
afterAll(async () => {
  await target?.stop()
  await cluster?.dispose()
})

defineSharedStateSuite(() => target)
