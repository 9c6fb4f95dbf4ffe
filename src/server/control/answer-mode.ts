import * as z from 'zod/mini'
import { madeWhenRead } from '../../contract/made-when-read.js'
import { ApiError } from '../../http/api-error.js'
import { jsonResponse } from '../../http/json-response.js'
import type { SandboxResponse } from '../../http/types.js'
import type { SandboxCore } from '../../sandbox/create-sandbox-core.js'
import { SESSION_MODES, type SessionMode } from '../../upstream/upstream-options.js'

/** The body of `PUT /__sandbox/mode`, made on first use. */
export const MODE_BODY = madeWhenRead({
  schema: () =>
    z.strictObject({
      mode: z.enum(SESSION_MODES as [SessionMode, ...SessionMode[]], {
        error: `must be one of ${SESSION_MODES.join(', ')}`,
      }),
    }),
})

/**
 * `GET|PUT /__sandbox/mode` (contract §17): the session's mode, the modes the
 * sandbox has, the upstream's URL, the replayed archive and the recording's
 * size. A mode the sandbox was not started with is 409 `mode_unavailable`.
 *
 * @example
 * return answerMode(sandbox, session.id, { mode: 'sandbox' })
 */
export const answerMode = async (
  sandbox: SandboxCore,
  session: string,
  change?: { mode: SessionMode },
): Promise<SandboxResponse> => {
  const controls = sandbox.session(session)
  if (change !== undefined) {
    if (!controls.mode.list().includes(change.mode))
      throw new ApiError(
        'mode_unavailable',
        `This sandbox cannot answer in "${change.mode}" mode: it was started without ${change.mode === 'upstream' ? 'an upstream (--upstream URL)' : 'a recording (--replay FILE)'}. Its modes: ${controls.mode.list().join(', ')}.`,
        {
          details: [{ field: 'mode', message: `is not one of ${controls.mode.list().join(', ')}` }],
        },
      )
    controls.mode.set(change.mode)
  }
  const { upstream } = sandbox
  return jsonResponse(200, {
    mode: controls.mode.get(),
    modes: controls.mode.list(),
    upstream: upstream.url ?? null,
    replay: (await upstream.replay()) ?? null,
    recorded: await upstream.recorded(),
  })
}
