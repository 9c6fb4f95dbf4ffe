import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Dashboard } from '../dashboard/create-dashboard.js'
import { handleDashboardRequest } from '../dashboard/handle-dashboard-request.js'
import { type ControlContext, handleControlRequest } from './handle-control-request.js'

/**
 * Answers a request below `/__sandbox` whose Host and Origin passed: the
 * dashboard's routes, else the control API's. The server imports this module
 * on the first such request, so a start that only serves the API never parses
 * the control API, the judge or the dashboard's routes (issue 20).
 *
 * @example
 * const { serveControlPlane } = await import('./control/serve-control-plane.js')
 * await serveControlPlane({ dashboard, control, req, res })
 */
export const serveControlPlane = async ({
  dashboard,
  control,
  req,
  res,
}: {
  dashboard: Dashboard
  control: ControlContext
  req: IncomingMessage
  res: ServerResponse
}): Promise<void> => {
  if (await handleDashboardRequest(dashboard, req, res)) return
  await handleControlRequest(control, req, res)
}
