// The pre-test step (the first part of `npm test`): the tests need Debian's
// Chromium (browser tests; browsers are never downloaded) and `redis-server`
// (the Redis tests start their own). When one is missing and can be installed
// (root, apt-get), it installs Debian's package without letting it start the
// Redis system service; otherwise it stops at once with one line naming the
// command to run, before any test starts. See docs/development.md.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync, rmSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const DEFAULT_CHROMIUM = '/usr/bin/chromium'
const DEFAULT_POLICY = '/usr/sbin/policy-rc.d'
/** The Debian package of each tool. */
const PACKAGES = { chromium: 'chromium', redis: 'redis-server' }

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Whether a command is on the PATH given. */
export const onPath = (name, path = '') =>
  path
    .split(delimiter)
    .filter((folder) => folder !== '')
    .some((folder) => isExecutable(join(folder, name)))

/**
 * What is there: Chromium (PETSTORE_SANDBOX_CHROMIUM, else Debian's path),
 * redis-server and apt-get on the PATH.
 *
 * @example
 * findTestTools({ env: process.env }) // { chromium: { path, present }, redis: true, aptGet: true }
 */
export const findTestTools = ({ env, chromiumPath = DEFAULT_CHROMIUM }) => {
  const chosen = env.PETSTORE_SANDBOX_CHROMIUM
  const path = chosen === undefined || chosen === '' ? chromiumPath : chosen
  return {
    chromium: { path, present: isExecutable(path), chosen: path === chosen },
    redis: onPath('redis-server', env.PATH),
    aptGet: onPath('apt-get', env.PATH),
  }
}

/**
 * The decision, from the facts alone: nothing to do, install these Debian
 * packages, or stop with this one line.
 *
 * @example
 * planProvision({ tools, root: false }) // { kind: 'stop', line: '… run: sudo apt-get install -y redis-server' }
 */
export const planProvision = ({ tools, root }) => {
  if (tools.chromium.chosen && !tools.chromium.present)
    return {
      kind: 'stop',
      line: `petstore-sandbox: PETSTORE_SANDBOX_CHROMIUM=${tools.chromium.path} is not an executable file; point it at Chromium or Chrome, or unset it to use Debian's ${DEFAULT_CHROMIUM}.`,
    }
  const packages = [
    ...(tools.chromium.present ? [] : [PACKAGES.chromium]),
    ...(tools.redis ? [] : [PACKAGES.redis]),
  ]
  if (packages.length === 0) return { kind: 'ready' }
  const needs = `the tests need ${packages.join(' and ')}`
  if (!tools.aptGet)
    return {
      kind: 'stop',
      line: `petstore-sandbox: ${needs}; install ${packages.join(' and ')} with your package manager (Chromium at ${DEFAULT_CHROMIUM}, or set PETSTORE_SANDBOX_CHROMIUM), then run npm test again.`,
    }
  if (!root)
    return {
      kind: 'stop',
      line: `petstore-sandbox: ${needs}; run: sudo apt-get install -y ${packages.join(' ')}`,
    }
  return { kind: 'install', packages }
}

/**
 * Runs the step: checks, installs when it can, and returns the exit code (0
 * ready, 1 stopped). Everything it touches is injectable, for its tests.
 *
 * @example
 * process.exitCode = provisionTestTools()
 */
export const provisionTestTools = ({
  env = process.env,
  root = process.getuid?.() === 0,
  chromiumPath = DEFAULT_CHROMIUM,
  policyPath = DEFAULT_POLICY,
  log = (line) => process.stderr.write(`${line}\n`),
  stdio = 'inherit',
} = {}) => {
  const plan = planProvision({ tools: findTestTools({ env, chromiumPath }), root })
  if (plan.kind === 'ready') return 0
  if (plan.kind === 'stop') {
    log(plan.line)
    return 1
  }
  log(
    `petstore-sandbox: installing ${plan.packages.join(' and ')} from Debian's packages for the tests (apt-get)…`,
  )
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' }
  const apt = (...args) => spawnSync('apt-get', args, { env: aptEnv, stdio }).status === 0
  // policy-rc.d answering 101 keeps the package from starting the Redis system service.
  const ownPolicy = plan.packages.includes(PACKAGES.redis) && !existsSync(policyPath)
  if (ownPolicy) writeFileSync(policyPath, '#!/bin/sh\nexit 101\n', { mode: 0o755 })
  let installed
  try {
    installed = apt('update') && apt('install', '-y', ...plan.packages)
  } finally {
    if (ownPolicy) rmSync(policyPath, { force: true })
  }
  const after = planProvision({ tools: findTestTools({ env, chromiumPath }), root })
  if (installed && after.kind === 'ready') return 0
  log(
    `petstore-sandbox: apt-get could not install ${plan.packages.join(' and ')}; run: apt-get update && apt-get install -y ${plan.packages.join(' ')}`,
  )
  return 1
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = provisionTestTools()
