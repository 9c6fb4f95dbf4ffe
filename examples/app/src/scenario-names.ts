/**
 * The sandbox's built-in scenarios (contract §8), for the picker. The app
 * keeps its own list, as a client of a remote server would, instead of
 * bundling the sandbox; test/docs/example-app-scenarios.test.ts keeps it in
 * step with the registry.
 */
export const BUILT_IN_SCENARIOS = [
  'default',
  'empty',
  'paginated',
  'rate-limited',
  'banned',
  'unauthorized',
  'server-error',
  'unavailable',
  'slow',
  'timeout',
  'network-error',
  'sunset',
  'flaky',
  'reset-mid-body',
  'truncated-body',
  'stall-after-headers',
  'slow-body',
  'malformed-json',
  'proxy-error',
  'empty-response',
  'commit-then-drop',
  'outage',
] as const
