import { buildExampleApp } from './build.js'
import { serveStatic } from './serve-static.js'

// `npm run example:app`: build, then serve on http://127.0.0.1:5173 (PORT overrides).
const root = await buildExampleApp()
const server = await serveStatic({ root, port: Number(process.env.PORT ?? 5173) })
console.log(`Example app, no server needed: ${server.origin}/?mock=worker`)
console.log(
  `Against the standalone server (npm start): ${server.origin}/?api=http://127.0.0.1:4010/v1`,
)
