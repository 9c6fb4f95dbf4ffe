import { isContractOperationId } from '../contract/operation-ids.js'
import { createRouter, type Router } from '../http/router.js'
import type { Operation } from './operation.js'
import { API_ROUTER, OPERATIONS } from './routes.js'

/**
 * A sandbox's operations and their router, compiled once at its creation
 * (decision 0042): the contract's three, then the operations added to it
 * (own handlers, an OpenAPI document's). The pipeline matches a request
 * against `router`; the journal, coverage, report and dashboard name
 * `operations`.
 */
export interface RouteTable {
  readonly router: Router<Operation>
  /** The contract's operations first, then the added ones in the order given. */
  readonly operations: readonly Operation[]
  /** The ids of `operations`, in that order. */
  readonly ids: readonly string[]
}

/** The contract's own table: what every sandbox without added operations shares (no cost for them). */
export const CONTRACT_ROUTES: RouteTable = {
  router: API_ROUTER,
  operations: OPERATIONS,
  ids: OPERATIONS.map((operation) => operation.id),
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])

const checkAdded = (operation: Operation, index: number, ids: Set<string>, what: string): void => {
  const where = `Failed to ${what}: added operation ${index}`
  if (typeof operation !== 'object' || operation === null)
    throw new TypeError(`${where} is not an object { id, method, path, run }. Fix it.`)
  const { id, method, path, run } = operation
  if (typeof id !== 'string' || id.length === 0 || id.length > 200)
    throw new TypeError(`${where} needs an id of 1-200 characters, e.g. "GET /categories".`)
  if (isContractOperationId(id) || ids.has(id))
    throw new TypeError(
      `${where} "${id}" repeats the id of ${isContractOperationId(id) ? "one of the contract's operations" : 'another operation'}. Give it an id of its own.`,
    )
  if (!METHODS.has(method))
    throw new TypeError(
      `${where} "${id}" has method ${String(method)}; use one of ${[...METHODS].join(', ')}.`,
    )
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new TypeError(
      `${where} "${id}" needs a path template below the base path, e.g. "/categories/{id}".`,
    )
  if (typeof run !== 'function') throw new TypeError(`${where} "${id}" needs a run function.`)
  if (API_ROUTER.match(method, path).kind === 'found')
    throw new TypeError(
      `${where} "${id}" redefines the contract's ${method} ${path}. The contract's operations are the sandbox's; put a handler before the sandbox's to override one.`,
    )
}

/**
 * The route table of a sandbox: the contract's, or (with added operations)
 * a new one compiled once with the contract's routes first. Throws a
 * TypeError for an added operation without an id, method, path or run, one
 * that repeats an id, or one that redefines a contract route.
 *
 * @example
 * const table = createRouteTable([{ id: 'GET /categories', method: 'GET', path: '/categories', run }])
 * table.router.match('GET', '/categories') // { kind: 'found', value: { id: 'GET /categories', … }, … }
 */
export const createRouteTable = (
  added: readonly Operation[] = [],
  what = 'create the sandbox',
): RouteTable => {
  if (added.length === 0) return CONTRACT_ROUTES
  const ids = new Set<string>()
  added.forEach((operation, index) => {
    checkAdded(operation, index, ids, what)
    ids.add(operation.id)
  })
  const operations = [...OPERATIONS, ...added]
  const router = createRouter<Operation>()
  for (const operation of operations) {
    try {
      router.add(operation.method, operation.path, operation)
    } catch (error) {
      throw new TypeError(
        `Failed to ${what}: operation "${operation.id}": ${(error as Error).message.replace(/^Failed to /, 'could not ')}`,
      )
    }
  }
  return { router, operations, ids: operations.map((operation) => operation.id) }
}
