import { writeFile } from 'node:fs/promises'
import { FIDELITY_SETTING_NAMES, type FidelitySettings } from '../contract/fidelity.js'
import { verify } from '../server/verify/verify.js'
import { formatReport } from '../verify/format-report.js'
import { toJunitXml } from '../verify/to-junit-xml.js'
import type { VerifyReport } from '../verify/verify-types.js'
import { CliUsageError } from './cli-usage-error.js'
import { loadConfigFile } from './load-config-file.js'
import { parseConfigFile } from './parse-config-file.js'
import { parseVerifyArgs } from './parse-verify-args.js'
import type { Env } from './read-setting.js'
import { VERIFY_HELP } from './verify-help.js'

interface Output {
  stdout(text: string): void
  stderr(text: string): void
}

const fidelityOf = (settings: Record<string, unknown>): Partial<FidelitySettings> =>
  Object.fromEntries(
    FIDELITY_SETTING_NAMES.filter((name) => settings[name] !== undefined).map((name) => [
      name,
      settings[name],
    ]),
  ) as Partial<FidelitySettings>

const writeOut = async (file: string, text: string, what: string): Promise<void> => {
  try {
    await writeFile(file, text)
  } catch (error) {
    throw new Error(
      `Failed to write ${what} to ${file}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

/**
 * `petstore-sandbox verify`: parses the arguments, runs `verify`, prints the
 * table and writes the reports and the config asked for. Resolves with the
 * exit code: 0 every spec check passed, 1 otherwise (or a file could not be
 * written), 2 bad usage.
 *
 * @example
 * process.exit(await runVerifyCommand(process.argv.slice(3), process.env, output))
 */
export const runVerifyCommand = async (
  args: readonly string[],
  env: Env,
  out: Output,
): Promise<number> => {
  let report: VerifyReport
  let command: ReturnType<typeof parseVerifyArgs>
  try {
    command = parseVerifyArgs(args, env)
    if (command.kind === 'verify-help') {
      out.stdout(VERIFY_HELP)
      return 0
    }
    const sandbox =
      command.configFile === undefined
        ? {}
        : fidelityOf(parseConfigFile(await loadConfigFile(command.configFile), command.configFile))
    report = await verify({
      target: command.target,
      key: command.key,
      allowWrites: command.allowWrites,
      ...(command.maxRequests === undefined ? {} : { maxRequests: command.maxRequests }),
      ...(command.timeoutMs === undefined ? {} : { timeoutMs: command.timeoutMs }),
      ...(command.maxWaitMs === undefined ? {} : { maxWaitMs: command.maxWaitMs }),
      ...(command.maxBodyBytes === undefined ? {} : { maxBodyBytes: command.maxBodyBytes }),
      sandbox,
      ...(command.openapi === undefined ? {} : { openapi: command.openapi }),
    })
  } catch (error) {
    const usage = error instanceof CliUsageError || error instanceof TypeError
    out.stderr(`petstore-sandbox: ${error instanceof Error ? error.message : String(error)}\n`)
    if (usage) out.stderr('Run "petstore-sandbox verify --help" for the options.\n')
    return usage ? 2 : 1
  }
  out.stdout(formatReport(report, { emitsConfig: command.emitConfig !== undefined }))
  try {
    for (const { format, file } of command.reports) {
      await writeOut(
        file,
        format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : toJunitXml(report),
        `the ${format} report`,
      )
      out.stdout(`Wrote the ${format} report to ${file}.\n`)
    }
    if (command.emitConfig !== undefined) {
      await writeOut(
        command.emitConfig,
        `${JSON.stringify(report.config, null, 2)}\n`,
        'the config',
      )
      out.stdout(
        `Wrote the config to ${command.emitConfig}: start the sandbox with --config ${command.emitConfig} to answer like the target.\n`,
      )
    }
  } catch (error) {
    out.stderr(`petstore-sandbox: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  return report.passed ? 0 : 1
}
