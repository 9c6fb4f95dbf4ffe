/**
 * The prefix of the control API and the dashboard (contract §9). A module of
 * its own: the server routes by it at start, and loads the control API's code
 * only on the first request below it (issue 20).
 *
 * @example
 * req.url?.startsWith(`${CONTROL_PREFIX}/`) // a control API or dashboard request
 */
export const CONTROL_PREFIX = '/__sandbox'
