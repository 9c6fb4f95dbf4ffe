import { useEffect, useState } from 'preact/hooks'
import type { DashboardSnapshot } from '../dashboard-types.js'

/**
 * The sandbox clock as the page estimates it between snapshots: frozen stays
 * put; real time moves on with the page's own clock. Re-renders every second.
 */
export const useSandboxNow = (
  snapshot: DashboardSnapshot | undefined,
  receivedAt: number,
): number => {
  const [tick, setTick] = useState(0)
  useEffect(() => {
    const id = setInterval(() => setTick((t) => t + 1), 1_000)
    return () => clearInterval(id)
  }, [])
  void tick
  if (snapshot === undefined) return Date.now()
  return snapshot.frozen ? snapshot.now : snapshot.now + (Date.now() - receivedAt)
}
