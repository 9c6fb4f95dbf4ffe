import { unauthorized } from '../../http/errors.js'
import { defineScenario } from '../define-scenario.js'

/** The key is treated as revoked, as if it had been revoked a moment ago. */
export const unauthorizedScenario = defineScenario({
  name: 'unauthorized',
  description:
    'Every request answers 401 invalid_api_key with WWW-Authenticate, as if the key had just been revoked.',
  respond: () =>
    unauthorized('invalid_api_key', {
      tokenSent: true,
      message:
        'The API key is unknown or has been revoked (forced by the "unauthorized" scenario).',
    }),
})
