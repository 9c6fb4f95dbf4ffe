import { ApiError } from '../../http/api-error.js'
import { defineScenario } from '../define-scenario.js'

/** The server fails. */
export const serverErrorScenario = defineScenario({
  name: 'server-error',
  description: 'Every request answers 500 internal_error; nothing is read or written.',
  respond: () =>
    new ApiError(
      'internal_error',
      'The server failed to answer this request (forced by the "server-error" scenario).',
    ),
})
