import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/parse-cli-args.js'

// Issue 37 item 11: a new user who ran `npm start` asked how to serve on another port. The
// README and the server guide say it (`npm start -- --port N`), and what they say works: npm
// appends the words after `--` to the start script, whose last command is the CLI.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const COMMAND = /`npm start -- (--port [0-9]+)`/

describe('npm start on another port', () => {
  it.each(['README.md', 'docs/server.md'])('is said in %s', (path) => {
    expect(read(path)).toMatch(COMMAND)
  })

  it('passes the flag to the CLI, which serves on that port', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start
    // npm runs `<script> --port 5000`: the flags reach the CLI only when it is the script's end.
    expect(start).toMatch(/&& node dist\/cli\/petstore-sandbox\.js$/)
    const flags = (COMMAND.exec(read('README.md'))?.[1] ?? '').split(' ')
    const command = parseCliArgs(flags, {})
    expect(command.kind === 'serve' && command.settings.port).toBe(Number(flags[1]))
  })
})
