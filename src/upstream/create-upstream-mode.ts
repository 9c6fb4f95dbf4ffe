import type { SandboxResponse } from '../http/types.js'
import type { JournalRecord } from '../journal/journal.js'
import type { Har } from '../journal/to-har.js'
import type { InFrontInput, PipelineContext } from '../pipeline/pipeline-context.js'
import { createAnswerValidator } from '../validation/create-answer-validator.js'
import { answerInFront, type Front } from './answer-in-front.js'
import { createFetchForwarder } from './forward-with-fetch.js'
import { createRecording } from './recording.js'
import { createReplayIndex } from './replay-index.js'
import type { SessionModes } from './session-modes.js'
import type { ResolvedUpstream } from './upstream-options.js'

/** Upstream mode, loaded (only when the sandbox has the `upstream` option). */
export interface UpstreamMode {
  answer(input: InFrontInput): Promise<{ response: SandboxResponse; record: JournalRecord }>
  /** The forwarded traffic recorded so far; no entries without `record` (or with a file). */
  recording(): Har
  /** How many answers were recorded. */
  recorded(): number
  /** Resolves once the recording's sink has the newest entries. */
  flush(): Promise<void>
  /** The replay archive: answers indexed and entries skipped; undefined without `replay`. */
  replayed(): { answers: number; skipped: number } | undefined
  /** Rewinds a session's replay sequences (reset, dropped session). */
  rewind(session: string): void
}

/**
 * Builds upstream mode for a sandbox: the validator (contract §16's rules,
 * with the sandbox's fidelity settings), the replay index, the recording.
 * Its module is imported on demand, so a sandbox without an upstream (and a
 * browser bundle that never uses one) does not pay for it at start.
 *
 * @example
 * const mode = createUpstreamMode({ ctx, config: resolveUpstreamOptions(url), modes })
 */
export const createUpstreamMode = (input: {
  ctx: PipelineContext
  config: ResolvedUpstream
  modes: SessionModes
}): UpstreamMode => {
  const { ctx, config, modes } = input
  const bases = [ctx.settings.basePath]
  if (config.url !== undefined) {
    const upstreamPath = new URL(config.url).pathname.replace(/\/+$/, '')
    if (upstreamPath !== '' && upstreamPath !== ctx.settings.basePath) bases.push(upstreamPath)
  }
  const replay = config.replay === undefined ? undefined : createReplayIndex(config.replay, bases)
  const recording =
    config.record === undefined
      ? undefined
      : createRecording(config.record, config.key, ctx.onError)
  const front: Front = {
    ctx,
    config,
    modes,
    // The gap rules judge the answer against the sandbox's own fidelity settings (contract §16).
    validate: createAnswerValidator({
      fidelity: ctx.settings.fidelity,
      sunsetAt: ctx.settings.sunsetAt,
    }),
    replay,
    recording,
    forward: createFetchForwarder(),
  }
  const empty = createRecording({ sink: undefined, appender: undefined }, undefined, ctx.onError)
  return {
    answer: (request) => answerInFront(front, request),
    recording: () => (recording ?? empty).toHAR(),
    recorded: () => recording?.count ?? 0,
    flush: async () => {
      await recording?.flush()
    },
    replayed: () =>
      replay === undefined ? undefined : { answers: replay.answers, skipped: replay.skipped },
    rewind: (session) => replay?.rewind(session),
  }
}
