// A bare node:http server answering recorded bytes: the benchmark's baseline.
// argv[2]: JSON { "<METHOD> <target>": { status, headers, body } }, or a file path starting with @.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const arg = process.argv[2] ?? '{}'
const answers = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg)
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    const answer = answers[`${req.method} ${req.url}`] ?? answers[`${req.method} *`]
    if (answer === undefined) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(answer.status, answer.headers)
    res.end(answer.body)
  })
})
process.on('SIGTERM', () => process.exit(0))
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`serving http://127.0.0.1:${server.address().port}\n`)
})
