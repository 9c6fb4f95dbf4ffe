import { defineScenario } from '../define-scenario.js'
import { readChoiceParam } from '../read-choice-param.js'

/** Whether `proxy-error` keeps the sandbox's CORS headers (`__cors`): a stock gateway's 502 has none. */
const CORS_CHOICES = ['none', 'keep'] as const

/** A load balancer's 502 page. */
export const proxyErrorScenario = defineScenario({
  name: 'proxy-error',
  description:
    "502 text/html with a gateway's short error page, as a load balancer sends it: no Error body, no rate-limit headers, no CORS headers (a cross-origin page's fetch fails; __cors=keep keeps them); the operation does not run.",
  fault: 'proxy-error',
  faultSetting: (ctx) => readChoiceParam(ctx, '__cors', CORS_CHOICES),
})
