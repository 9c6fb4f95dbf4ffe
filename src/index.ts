/**
 * petstore-sandbox: the runtime-free core and `createSandbox` (MSW handlers).
 * Runtimes have their own entries (`petstore-sandbox/node`, …).
 */
export * from './core-api.js'
export { loadSeedFaker } from './db/seed-faker.js'
export {
  type CreateSandboxOptions,
  createSandbox,
  type Sandbox,
} from './handlers/create-sandbox.js'
