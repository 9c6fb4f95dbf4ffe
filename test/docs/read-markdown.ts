import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import GithubSlugger from 'github-slugger'
import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { toString as textOf } from 'mdast-util-to-string'
import { gfm } from 'micromark-extension-gfm'
import { visit } from 'unist-util-visit'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A fenced code block, with the file it claims to be (`<!-- file: path -->` just above it). */
export interface CodeBlock {
  lang: string
  text: string
  line: number
  file: string | undefined
}

/** A table (GitHub's extension): its header cells and rows, as plain text. */
export interface MarkdownTable {
  header: string[]
  rows: string[][]
  line: number
}

export interface MarkdownPage {
  /** The path from the repository's root, e.g. `docs/server.md`. */
  path: string
  lines: string[]
  /** The anchors of its headings, as GitHub makes them (github-slugger). */
  anchors: Set<string>
  /** Every link and image outside code (inline, reference and autolink), with its line. */
  links: { target: string; line: number }[]
  blocks: CodeBlock[]
  /** `## ` headings in order, and the line of each. */
  sections: { title: string; line: number }[]
  /** Headings of every depth, as rendered text, in order. */
  headings: { depth: number; title: string; line: number }[]
  tables: MarkdownTable[]
  /** The parsed tree (CommonMark and GitHub's tables, as micromark reads them). */
  tree: Root
}

const FILE_MARKER = /^<!-- file: (\S+) -->$/

const lineOf = (node: Nodes): number => node.position?.start.line ?? 0

/**
 * Parses a Markdown text as CommonMark with GitHub's extensions (micromark, the
 * parser behind remark), so the docs tests see what a renderer shows: a fence that
 * does not close swallows the rest of the page here too (issue 31, item 12).
 *
 * @example
 * const page = parseMarkdown('docs/server.md', '# Server\n')
 */
export const parseMarkdown = (path: string, text: string): MarkdownPage => {
  const tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
  const slugger = new GithubSlugger()
  const page: MarkdownPage = {
    path,
    lines: text.split('\n'),
    anchors: new Set(),
    links: [],
    blocks: [],
    sections: [],
    headings: [],
    tables: [],
    tree,
  }
  const definitions = new Map<string, string>()
  visit(tree, 'definition', (node) => {
    definitions.set(node.identifier, node.url)
  })
  visit(tree, (node, index, parent) => {
    switch (node.type) {
      case 'heading': {
        const title = textOf(node)
        page.anchors.add(slugger.slug(title))
        page.headings.push({ depth: node.depth, title, line: lineOf(node) })
        if (node.depth === 2) page.sections.push({ title, line: lineOf(node) })
        return
      }
      case 'link':
      case 'image':
        page.links.push({ target: node.url, line: lineOf(node) })
        return
      case 'linkReference':
      case 'imageReference': {
        const target = definitions.get(node.identifier)
        if (target !== undefined) page.links.push({ target, line: lineOf(node) })
        return
      }
      case 'code': {
        const before = index === undefined ? undefined : parent?.children[index - 1]
        const marker =
          before?.type === 'html' ? FILE_MARKER.exec(before.value.trim())?.[1] : undefined
        page.blocks.push({
          lang: node.lang ?? '',
          text: node.value === '' ? '' : `${node.value}\n`,
          line: lineOf(node),
          file: marker,
        })
        return
      }
      case 'table': {
        const [head, ...rows] = node.children.map((row) => row.children.map((cell) => textOf(cell)))
        page.tables.push({ header: head ?? [], rows, line: lineOf(node) })
        return
      }
      default:
        return
    }
  })
  return page
}

/**
 * Reads a Markdown page of the repository the way the docs tests need it:
 * headings (as anchors), links, code blocks and tables.
 *
 * @example
 * const readme = readMarkdown('README.md')
 */
export const readMarkdown = (path: string): MarkdownPage =>
  parseMarkdown(path, readFileSync(join(ROOT, path), 'utf8'))

/** Every Markdown file under a folder of the repository, as paths from its root. */
export const markdownFiles = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => relative(ROOT, join(ROOT, folder, name)))
    .sort()
