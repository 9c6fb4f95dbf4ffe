import { defineScenario } from '../define-scenario.js'

/** A load balancer's 502 page. */
export const proxyErrorScenario = defineScenario({
  name: 'proxy-error',
  description:
    "502 text/html with a gateway's short error page, as a load balancer sends it: no Error body, no rate-limit headers; the operation does not run.",
  fault: 'proxy-error',
})
