import SwaggerUIBundle, { type SwaggerRequest } from 'swagger-ui-dist/swagger-ui-es-bundle.js'
import 'swagger-ui-dist/swagger-ui.css'
import './docs.css'
import { ControlError, call, readToken } from '../../dashboard/app/api.js'
import { prepareForTryIt } from './prepare-for-try-it.js'
import { loadSettings, tryItHeaders } from './settings.js'
import { mountTryItBar } from './try-it-bar.js'

// The API reference page (GET /__sandbox/docs): Swagger UI over the document the
// server serves at /__sandbox/openapi.json (operations added by config or code
// included), its try-it pointed at this server with the bar's key, scenario and session.

const basePath =
  document.querySelector('meta[name="petstore-sandbox-base-path"]')?.getAttribute('content') ??
  '/v1'
const bar = document.getElementById('try-it')
const reference = document.getElementById('reference')

const start = async (): Promise<void> => {
  if (bar === null || reference === null) return
  const settings = loadSettings()
  const reload = (): void => location.reload()
  const barReady = mountTryItBar(bar, settings, reload)
  let spec: Record<string, unknown>
  try {
    spec = await call<Record<string, unknown>>('GET', '/openapi.json')
  } catch (error) {
    await barReady
    reference.textContent =
      error instanceof ControlError
        ? `The OpenAPI document could not be read: ${error.message}`
        : String(error)
    return
  }
  SwaggerUIBundle({
    domNode: reference,
    spec: prepareForTryIt(spec, location.origin, basePath),
    // Swagger UI would load a badge from validator.swagger.io: nothing leaves this server.
    validatorUrl: null,
    tryItOutEnabled: true,
    deepLinking: false,
    queryConfigEnabled: false,
    displayRequestDuration: true,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    requestInterceptor: (request: SwaggerRequest) => {
      const url = new URL(request.url, location.href)
      if (url.origin !== location.origin) return request
      Object.assign(request.headers, tryItHeaders(settings, basePath, url.pathname, readToken()))
      return request
    },
  })
  await barReady
}

void start()
