import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/parse-cli-args.js'
import { parseVerifyArgs } from '../../src/cli/parse-verify-args.js'
import {
  type MarkdownPage,
  markdownFiles,
  parseMarkdown,
  ROOT,
  readMarkdown,
} from './read-markdown.js'

// Issue 21, point 5: a README a newcomer can use, and guides that cannot rot.
// Every relative link and anchor resolves; every README snippet is a file
// that `npm test` runs; every guide opens with a runnable example.
const README = readMarkdown('README.md')
const DOCS = markdownFiles('docs').map(readMarkdown)
const GUIDES = DOCS.filter((page) => /^docs\/[^/]+\.md$/.test(page.path))
  .filter((page) => page.path !== 'docs/architecture.md')
  .map((page) => page)

const testFiles = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts') && !name.includes('node_modules'))
    .map((name) => join(folder, name))
const TESTS = [...testFiles('test'), ...testFiles('examples')].map((path) => ({
  path,
  text: readFileSync(join(ROOT, path), 'utf8'),
}))

/** A vitest test file, or a file a test file names (`./browser/main.ts`), or a spec its named Playwright config runs. */
const isRunByNpmTest = (file: string): boolean => {
  if (TESTS.some((t) => t.path === file)) return true
  const named = (target: string) =>
    TESTS.some((t) => {
      const from = relative(dirname(t.path), target)
      return t.text.includes(from.startsWith('.') ? from : `./${from}`)
    })
  if (named(file)) return true
  const config = join(dirname(file), 'playwright.config.ts')
  return file.endsWith('.spec.ts') && existsSync(join(ROOT, config)) && named(config)
}

const where = (page: MarkdownPage, line: number) => `${page.path}:${line}`

/** The targets of a page's relative links that do not resolve (file, or heading anchor). */
const brokenLinks = (page: MarkdownPage): string[] => {
  const broken: string[] = []
  for (const { target, line } of page.links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
    const [pathPart = '', anchor] = target.split('#')
    const path = pathPart === '' ? page.path : normalize(join(dirname(page.path), pathPart))
    if (path.startsWith('..') || !existsSync(join(ROOT, path))) {
      broken.push(`${where(page, line)} ${target}: no such file`)
      continue
    }
    if (anchor === undefined) continue
    if (!path.endsWith('.md') || statSync(join(ROOT, path)).isDirectory()) {
      broken.push(`${where(page, line)} ${target}: an anchor into a file that is not Markdown`)
      continue
    }
    const anchors = path === page.path ? page.anchors : readMarkdown(path).anchors
    if (!anchors.has(anchor)) broken.push(`${where(page, line)} ${target}: no heading #${anchor}`)
  }
  return broken
}

/** What is wrong with the commands of a shell block: unknown npm scripts, CLI arguments the CLI refuses. */
const badCommands = (page: MarkdownPage, text: string, line: number): string[] => {
  const scripts = Object.keys(
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
  )
  const bad: string[] = []
  // A line ending in "\\" goes on on the next one.
  for (const raw of text.replaceAll(/\\\n\s*/g, ' ').split('\n')) {
    const command = raw.replace(/\s+#.*$/, '').trim()
    for (const part of command.split(/&&|;/).map((p) => p.trim())) {
      const words = part.split(/\s+/).filter((w) => w !== '' && w !== '&')
      const [first, second, ...rest] = words
      if (first === 'npm' && second === 'run' && !scripts.includes(rest[0] ?? ''))
        bad.push(`${where(page, line)} "${part}": no npm script "${rest[0]}"`)
      const cli = first === 'npx' ? (second === 'petstore-sandbox' ? rest : undefined) : undefined
      const direct = first === 'petstore-sandbox' ? [second, ...rest] : undefined
      const args = (cli ?? direct)?.filter((w): w is string => w !== undefined)
      if (args === undefined || args.some((w) => /[$"']/.test(w))) continue
      try {
        // `report` and `pact` have their own arguments, which their own tests check.
        if (args[0] === 'report' || args[0] === 'pact') continue
        // `verify` has its own arguments (it reads its key from the environment when not given).
        if (args[0] === 'verify')
          parseVerifyArgs(args.slice(1), { PETSTORE_SANDBOX_VERIFY_KEY: 'k' })
        else parseCliArgs(args)
      } catch (error) {
        bad.push(`${where(page, line)} "${part}": ${String(error)}`)
      }
    }
  }
  return bad
}

describe('the README', () => {
  it('is at most 300 lines', () => {
    expect(README.lines.length).toBeLessThanOrEqual(300)
  })

  it('links every guide in docs/ from its Guides list, in one click', () => {
    const start = README.sections.find((s) => s.title === 'Guides')?.line ?? -1
    const end = README.sections.find((s) => s.line > start)?.line ?? README.lines.length
    const linked = README.links
      .filter(({ line }) => line > start && line < end)
      .map(({ target }) => target)
    expect(start).toBeGreaterThan(0)
    expect(linked.sort()).toEqual(GUIDES.map((g) => g.path).sort())
  })

  it('shows every code snippet from a file that npm test runs, byte for byte', () => {
    const snippets = README.blocks.filter((block) => block.lang !== 'sh')
    expect(snippets.length).toBeGreaterThanOrEqual(3)
    for (const block of snippets) {
      expect(block.file, `${where(README, block.line)}: no <!-- file: … --> above`).toBeDefined()
      const file = block.file ?? ''
      expect(readFileSync(join(ROOT, file), 'utf8'), file).toBe(block.text)
      expect(isRunByNpmTest(file), `${file} is not run by npm test`).toBe(true)
    }
  })

  it('gives the commands CI runs: .ci/run is the two commands and nothing more', () => {
    const twoCommands = README.blocks.find((block) => block.text.includes('npm test'))?.text ?? ''
    const readmeCommands = twoCommands
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .join(' && ')
      .split(/\s*&&\s*/)
      .filter((c) => c !== '')
    expect(readmeCommands).toEqual(['npm ci', 'npm start', 'npm test'])
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .filter((line) => !line.startsWith('set -') && !line.startsWith('cd "$(dirname'))
    // The version line stays (CI logs say which Node ran); `npm start` serves, so CI stops before it.
    expect(ci).toEqual([
      'echo "node $(node --version), npm $(npm --version)"',
      'npm ci',
      'npm test',
    ])
  })
})

describe('the guides', () => {
  it('are there, one per topic', () => {
    expect(GUIDES.map((g) => basename(g.path))).toEqual(
      expect.arrayContaining([
        'test-runner.md',
        'browser.md',
        'playwright.md',
        'server.md',
        'sessions.md',
        'several-instances.md',
        'control-api.md',
        'benchmarks.md',
        'development.md',
        'dependencies.md',
      ]),
    )
  })

  it.each(GUIDES.map((g) => [g.path, g] as const))(
    '%s opens with a runnable example',
    (_, page) => {
      const first = page.blocks[0]
      // At the top, or in the first section (a guide may open with "## A runnable example").
      const firstSection = page.sections[1]?.line ?? Number.POSITIVE_INFINITY
      expect(first, `${page.path}: no code block`).toBeDefined()
      expect(
        first?.line ?? 0,
        `${page.path}: the first example comes after a section`,
      ).toBeLessThan(firstSection)
      if (first !== undefined && first.lang !== 'sh') {
        expect(first.file, `${page.path}: the opening example names its file`).toBeDefined()
        const file = normalize(join(dirname(page.path), first.file ?? ''))
        expect(isRunByNpmTest(file), `${file} is not run by npm test`).toBe(true)
      }
    },
  )

  it('show the named files byte for byte', () => {
    for (const page of GUIDES)
      for (const block of page.blocks.filter((b) => b.file !== undefined)) {
        const file = normalize(join(dirname(page.path), block.file ?? ''))
        expect(readFileSync(join(ROOT, file), 'utf8'), `${where(page, block.line)}`).toBe(
          block.text,
        )
      }
  })
})

describe('links and commands in README.md and docs/', () => {
  it('resolve: every relative link names a file, every anchor a heading', () => {
    expect([README, ...DOCS].flatMap(brokenLinks)).toEqual([])
  })

  it('use npm scripts that exist and CLI arguments the CLI accepts', () => {
    const bad = [README, ...DOCS].flatMap((page) =>
      page.blocks
        .filter((block) => block.lang === 'sh')
        .flatMap((block) => badCommands(page, block.text, block.line)),
    )
    expect(bad).toEqual([])
  })
})

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** Fenced blocks that do not close on a fence line of their own (CommonMark runs them on). */
const unclosedFences = (page: MarkdownPage): string[] =>
  page.blocks
    .filter((block) => FENCE.test(page.lines[block.line - 1] ?? ''))
    .flatMap((block) => {
      const open = FENCE.exec(page.lines[block.line - 1] ?? '')?.[1] ?? '```'
      const lines = block.text === '' ? 0 : block.text.split('\n').length - 1
      const closing = page.lines[block.line + lines] ?? ''
      const closes = new RegExp(`^ {0,3}${open[0] === '`' ? '`' : '~'}{${open.length},}\\s*$`)
      return closes.test(closing) ? [] : [`${where(page, block.line)}: the fence never closes`]
    })

/** Code blocks (other than Markdown and shell) that hold a heading: a fence swallowed the text. */
const headingsInCode = (page: MarkdownPage): string[] =>
  page.blocks
    .filter((block) => !['md', 'markdown', 'sh', 'bash', 'text', ''].includes(block.lang))
    .filter((block) => /^#{2,6} \S/m.test(block.text))
    .map((block) => `${where(page, block.line)}: a heading inside a ${block.lang} block`)

// Issue 31, item 12: docs/control-api.md closed a fence with "``` `POST …`", which is no
// closing fence in CommonMark: a third of the page, headings included, rendered as code.
// The pages are read by micromark (a CommonMark parser), so they are checked as rendered.
describe('Markdown as a CommonMark renderer reads it', () => {
  it('finds the fence that does not close (regression: control-api.md line 46)', () => {
    const page = parseMarkdown(
      'regression.md',
      '# A\n\n```json\n{ "a": 1 }\n``` `POST /x`\nrefuses another value.\n\n## B\n\nText.\n',
    )
    expect(unclosedFences(page)).toEqual(['regression.md:3: the fence never closes'])
    expect(page.sections).toEqual([])
  })

  it('every fence in README.md and docs/ closes, and no heading hides in code', () => {
    const pages = [README, ...DOCS]
    expect(pages.flatMap(unclosedFences)).toEqual([])
    expect(pages.flatMap(headingsInCode)).toEqual([])
  })
})

/** The files `npm pack` would publish (README.md included), as paths from the package's root. */
const packedFiles = (): string[] => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return ((JSON.parse(out) as { files: { path: string }[] }[])[0]?.files ?? []).map((f) => f.path)
}

// Issue 31, item 14: 13 links in the shipped docs pointed into examples/, which the package
// does not ship. A user reads these pages in node_modules/petstore-sandbox: every relative
// link must land on a file that is there.
describe('the README and guides as the package ships them', () => {
  it('link only to files inside the package', () => {
    const shipped = packedFiles()
    const inPackage = (path: string) =>
      shipped.includes(path) ||
      shipped.some((file) => file.startsWith(`${path.replace(/\/$/, '')}/`))
    const pages = [README, ...DOCS].filter((page) => shipped.includes(page.path))
    expect(pages.length).toBeGreaterThan(10)
    const outside = pages.flatMap((page) =>
      page.links
        .filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
        .map(({ target, line }) => ({
          target,
          line,
          path: normalize(join(dirname(page.path), target.split('#')[0] ?? '')),
        }))
        .filter(({ path }) => !inPackage(path))
        .map(({ target, line }) => `${where(page, line)} ${target}`),
    )
    expect(outside).toEqual([])
  }, 60_000)
})
