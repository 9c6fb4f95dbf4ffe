import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import GithubSlugger from 'github-slugger'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A fenced code block, with the file it claims to be (`<!-- file: path -->` just above it). */
export interface CodeBlock {
  lang: string
  text: string
  line: number
  file: string | undefined
}

export interface MarkdownPage {
  /** The path from the repository's root, e.g. `docs/server.md`. */
  path: string
  lines: string[]
  /** The anchors of its headings, as GitHub makes them (github-slugger). */
  anchors: Set<string>
  /** Every `[text](target)` outside code, with its line. */
  links: { target: string; line: number }[]
  blocks: CodeBlock[]
  /** `## ` headings in order, and the line of each. */
  sections: { title: string; line: number }[]
}

const FILE_MARKER = /^<!-- file: (\S+) -->$/
// [text](target) and ![alt](target); the target stops at whitespace or ")".
const LINK = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g

/**
 * Reads a Markdown page the way the docs tests need it: headings (as
 * anchors), links and code blocks, with code kept out of the links.
 *
 * @example
 * const readme = readMarkdown('README.md')
 */
export const readMarkdown = (path: string): MarkdownPage => {
  const lines = readFileSync(join(ROOT, path), 'utf8').split('\n')
  const slugger = new GithubSlugger()
  const page: MarkdownPage = {
    path,
    lines,
    anchors: new Set(),
    links: [],
    blocks: [],
    sections: [],
  }
  let open: CodeBlock | undefined
  lines.forEach((line, index) => {
    const fence = /^```(\S*)/.exec(line)
    if (open !== undefined) {
      if (line.startsWith('```')) {
        page.blocks.push(open)
        open = undefined
      } else open.text += `${line}\n`
      return
    }
    if (fence !== null) {
      const marker = FILE_MARKER.exec(lines[index - 1] ?? '')
      open = { lang: fence[1] ?? '', text: '', line: index + 1, file: marker?.[1] }
      return
    }
    const heading = /^(#{1,6}) (.+)$/.exec(line)
    if (heading !== null) {
      const title = heading[2] ?? ''
      page.anchors.add(slugger.slug(title))
      if (heading[1] === '##') page.sections.push({ title, line: index + 1 })
    }
    // Inline code holds no links.
    for (const match of line.replaceAll(/`[^`]*`/g, '').matchAll(LINK))
      page.links.push({ target: match[1] ?? '', line: index + 1 })
  })
  return page
}

/** Every Markdown file under a folder of the repository, as paths from its root. */
export const markdownFiles = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => relative(ROOT, join(ROOT, folder, name)))
    .sort()
