// The part of Swagger UI's API the page uses (swagger-ui-dist ships no types).
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  /** A request Swagger UI is about to send (try-it, or a document it fetches). */
  export interface SwaggerRequest {
    url: string
    method?: string
    headers: Record<string, string>
  }
  export interface SwaggerUIOptions {
    domNode: HTMLElement
    spec: object
    validatorUrl: null
    tryItOutEnabled?: boolean
    deepLinking?: boolean
    queryConfigEnabled?: boolean
    displayRequestDuration?: boolean
    persistAuthorization?: boolean
    supportedSubmitMethods?: readonly string[]
    requestInterceptor?: (request: SwaggerRequest) => SwaggerRequest
    presets?: readonly unknown[]
    plugins?: readonly unknown[]
    layout?: string
  }
  interface SwaggerUIBundle {
    (options: SwaggerUIOptions): unknown
    presets: { apis: unknown }
  }
  const SwaggerUIBundle: SwaggerUIBundle
  export default SwaggerUIBundle
}
