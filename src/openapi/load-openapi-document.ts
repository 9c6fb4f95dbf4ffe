import { parse as parseYaml } from 'yaml'
import type { OpenApiDocument, OpenApiSource } from './openapi-document.js'
import { DOCUMENT_LIMITS, nodeModules, readDocumentFile } from './read-document-file.js'

/** A refused document: the message names what to fix. Runtimes print it as one line. */
export class OpenApiDocumentError extends Error {
  constructor(reason: string) {
    super(`Failed to load the OpenAPI document: ${oneLine(reason)}`)
    this.name = 'OpenApiDocumentError'
  }
}

/** One line of at most 500 characters: a refusal quotes the user's text. */
const oneLine = (text: string): string => {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ')
  return flat.length > 500 ? `${flat.slice(0, 497)}...` : flat
}

/** The name a `$ref` gave an object (the last token of its pointer: `Pet` of `#/components/schemas/Pet`). */
const REF_NAMES = new WeakMap<object, string>()

/** The name the document's `$ref`s call this schema by, if any (for the served document's components). */
export const schemaNameOf = (schema: object): string | undefined => REF_NAMES.get(schema)

/** A JSON pointer (RFC 6901) of a place in a file, as a refusal names it. */
const pointer = (tokens: readonly (string | number)[]): string =>
  `#/${tokens.map((t) => String(t).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`

type Json = Record<string, unknown> | unknown[]
const isContainer = (value: unknown): value is Json => typeof value === 'object' && value !== null

/** One file of the document, parsed. */
interface DocumentFile {
  /** Its real path ('' for a document given as an object). */
  path: string
  root: unknown
}

/** A `$ref` found in a file: where it sits, so it can be replaced by its target. */
interface RefSite {
  file: DocumentFile
  holder: Json
  key: string | number
  ref: Record<string, unknown>
  at: (string | number)[]
}

const parseText = (text: string, name: string): unknown => {
  const start = /\S/.exec(text)?.[0]
  try {
    if (start === '{' || start === '[') return JSON.parse(text)
    return parseYaml(text, {
      maxAliasCount: DOCUMENT_LIMITS.yamlAliases,
      merge: true,
      uniqueKeys: false,
      prettyErrors: false,
    })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (error instanceof RangeError)
      throw new OpenApiDocumentError(
        `${name} nests deeper than the parser can read. Flatten it (at most ${DOCUMENT_LIMITS.depth} levels).`,
      )
    throw new OpenApiDocumentError(
      `${name} is neither JSON nor YAML the sandbox can read (${reason.split('\n')[0]}). Fix the file.`,
    )
  }
}

/**
 * Reads the document (a file path, YAML or JSON, or the object itself),
 * follows every `$ref` (keeping cycles: a recursive schema stays one, shared
 * by reference) and checks it is OpenAPI 3.0 or 3.1. Refs may name files
 * only inside the document's own folder, regular files of bounded size; no
 * URL is fetched. Throws an OpenApiDocumentError naming the place.
 *
 * @example
 * const document = await loadOpenApiDocument('examples/openapi/petstore-extras.yaml')
 */
export const loadOpenApiDocument = async (source: OpenApiSource): Promise<OpenApiDocument> => {
  if (typeof source !== 'string' && (typeof source !== 'object' || source === null))
    throw new OpenApiDocumentError(
      `the openapi option must be a file path or the document as an object, got ${source === null ? 'null' : typeof source}. Fix the option.`,
    )
  const files = new Map<string, DocumentFile>()
  let totalBytes = 0
  let folder: string | undefined

  const node = nodeModules()
  const readFile = async (path: string, label: string): Promise<DocumentFile> => {
    const known = files.get(path)
    if (known !== undefined) return known
    if (files.size >= DOCUMENT_LIMITS.files)
      throw new OpenApiDocumentError(
        `it refers to more than ${DOCUMENT_LIMITS.files} files. Bundle it into fewer.`,
      )
    const read = await readDocumentFile(path)
    if ('refused' in read)
      throw new OpenApiDocumentError(`cannot read ${label}: ${read.refused}. Fix the path.`)
    totalBytes += read.bytes
    if (totalBytes > DOCUMENT_LIMITS.totalBytes)
      throw new OpenApiDocumentError(
        `its files hold more than ${DOCUMENT_LIMITS.totalBytes} bytes together (at ${label}). Make it smaller.`,
      )
    const file: DocumentFile = { path, root: parseText(read.text, label) }
    files.set(path, file)
    return file
  }

  let main: DocumentFile
  if (typeof source === 'string') {
    if (node === undefined)
      throw new OpenApiDocumentError(
        `a file path ("${source}") needs Node; in a browser pass the document as an object.`,
      )
    const absolute = node.path.resolve(source)
    let real: string
    try {
      real = await node.fs.promises.realpath(absolute)
    } catch {
      throw new OpenApiDocumentError(`cannot read "${source}": no such file. Fix the path.`)
    }
    folder = node.path.dirname(real)
    main = await readFile(real, `"${source}"`)
  } else {
    let copy: unknown
    try {
      copy = structuredClone(source)
    } catch (error) {
      throw new OpenApiDocumentError(
        `the document object cannot be copied (${error instanceof Error ? error.message : String(error)}). Pass plain JSON data.`,
      )
    }
    main = { path: '', root: copy }
  }

  // Every $ref of every file, found by an iterative walk (no recursion: any depth is safe to walk).
  const sites: RefSite[] = []
  const walked = new Set<DocumentFile>()
  const walk = (file: DocumentFile): void => {
    if (walked.has(file)) return
    walked.add(file)
    const seen = new Set<unknown>()
    const stack: { value: Json; at: (string | number)[] }[] = []
    if (isContainer(file.root)) stack.push({ value: file.root, at: [] })
    while (stack.length > 0) {
      const { value, at } = stack.pop() as { value: Json; at: (string | number)[] }
      if (seen.has(value)) continue
      seen.add(value)
      if (at.length > DOCUMENT_LIMITS.depth)
        throw new OpenApiDocumentError(
          `${describeFile(file)} nests deeper than ${DOCUMENT_LIMITS.depth} levels at ${pointer(at.slice(0, 12))}/… . Flatten it.`,
        )
      const entries: [string | number, unknown][] = Array.isArray(value)
        ? value.map((v, i) => [i, v])
        : Object.entries(value)
      for (const [key, child] of entries) {
        if (!isContainer(child)) continue
        const childAt = [...at, key]
        if (!Array.isArray(child) && typeof child.$ref === 'string')
          sites.push({ file, holder: value, key, ref: child, at: childAt })
        stack.push({ value: child, at: childAt })
      }
    }
  }
  const describeFile = (file: DocumentFile): string =>
    file === main || node === undefined || folder === undefined
      ? 'the document'
      : `"${node.path.relative(folder, file.path)}"`

  /** The file a `$ref` names (the one it is in when it names none). */
  const fileOf = async (site: RefSite, target: string): Promise<DocumentFile> => {
    const place = `the $ref "${target}" at ${pointer(site.at)} of ${describeFile(site.file)}`
    if (target === '') return site.file
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !/^file:/i.test(target))
      throw new OpenApiDocumentError(
        `${place} names a URL; the sandbox fetches nothing. Download it next to the document and refer to the file.`,
      )
    if (node === undefined || folder === undefined || site.file.path === '')
      throw new OpenApiDocumentError(
        `${place} names a file, but the document was given as an object. Pass its path, or bundle the document.`,
      )
    let name = target
    if (/^file:/i.test(target)) {
      try {
        name = node.path.resolve(new URL(target).pathname)
      } catch {
        throw new OpenApiDocumentError(`${place} is not a valid file URL. Fix the $ref.`)
      }
    } else {
      try {
        name = decodeURIComponent(target)
      } catch {}
    }
    const absolute = node.path.resolve(node.path.dirname(site.file.path), name)
    let real: string
    try {
      real = await node.fs.promises.realpath(absolute)
    } catch {
      throw new OpenApiDocumentError(`${place}: no such file. Fix the $ref.`)
    }
    const inside = node.path.relative(folder, real)
    if (inside === '' || inside.startsWith('..') || node.path.isAbsolute(inside))
      throw new OpenApiDocumentError(
        `${place} reads outside the document's folder (${folder}); only files inside it are read. Move the file there, or bundle the document.`,
      )
    const file = await readFile(real, `"${inside}"`)
    walk(file)
    return file
  }

  walk(main)
  // Load every file the refs name first (sites grows while new files are walked).
  const targets = new Map<RefSite, { file: DocumentFile; tokens: string[] }>()
  for (let i = 0; i < sites.length; i += 1) {
    const site = sites[i] as RefSite
    const text = site.ref.$ref as string
    const hash = text.indexOf('#')
    const file = await fileOf(site, hash === -1 ? text : text.slice(0, hash))
    const fragment = hash === -1 ? '' : text.slice(hash + 1)
    let decoded = fragment
    try {
      decoded = decodeURIComponent(fragment)
    } catch {}
    if (decoded !== '' && !decoded.startsWith('/'))
      throw new OpenApiDocumentError(
        `the $ref "${text}" at ${pointer(site.at)} of ${describeFile(site.file)} is not a JSON pointer (#/…). Fix the $ref.`,
      )
    const tokens =
      decoded === ''
        ? []
        : decoded
            .slice(1)
            .split('/')
            .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))
    targets.set(site, { file, tokens })
  }

  const siteOf = new Map<unknown, RefSite>(sites.map((s) => [s.ref, s]))
  /** The value a ref points to, following refs on the way and at the end. */
  const resolve = (site: RefSite, hops = 0): unknown => {
    if (hops > DOCUMENT_LIMITS.depth)
      throw new OpenApiDocumentError(
        `the $ref at ${pointer(site.at)} of ${describeFile(site.file)} is part of a chain of $refs that never reaches a schema. Fix the $ref.`,
      )
    const target = targets.get(site)
    if (target === undefined) return undefined
    let value: unknown = target.file.root
    for (const token of target.tokens) {
      const step = siteOf.get(value)
      if (step !== undefined) value = resolve(step, hops + 1)
      if (!isContainer(value) || !Object.hasOwn(value, token)) {
        value = undefined
        break
      }
      const holder = value as Record<string, unknown>
      value = Object.hasOwn(holder, token) ? holder[token] : undefined
    }
    const last = siteOf.get(value)
    if (last !== undefined) value = resolve(last, hops + 1)
    if (value === undefined)
      throw new OpenApiDocumentError(
        `the $ref "${String(site.ref.$ref)}" at ${pointer(site.at)} of ${describeFile(site.file)} points to nothing. Fix the $ref.`,
      )
    return value
  }
  const resolved = new Map<RefSite, unknown>()
  for (const site of sites) {
    const value = resolve(site)
    const name = targets.get(site)?.tokens.at(-1)
    if (name !== undefined && isContainer(value) && !REF_NAMES.has(value))
      REF_NAMES.set(value, name)
    const siblings = Object.entries(site.ref).filter(([k]) => k !== '$ref')
    // A $ref with siblings (3.1, or a description beside it): the target's keys, then its own.
    resolved.set(
      site,
      siblings.length > 0 && isContainer(value) && !Array.isArray(value)
        ? { ...value, ...Object.fromEntries(siblings) }
        : value,
    )
  }
  // defineProperty: a $ref under a key named `__proto__` replaces that own key, not the prototype.
  for (const [site, value] of resolved)
    Object.defineProperty(site.holder as object, site.key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    })

  const document = main.root as Partial<OpenApiDocument> | null
  const version = typeof document?.openapi === 'string' ? document.openapi : undefined
  if (version === undefined || !/^3\.[01]\.\d+$/.test(version))
    throw new OpenApiDocumentError(
      `"openapi" is ${version === undefined ? 'missing' : `"${version}"`}; the sandbox reads OpenAPI 3.0.x and 3.1.x. Fix the document.`,
    )
  if (typeof document?.paths !== 'object' || document.paths === null)
    throw new OpenApiDocumentError('it has no "paths" object. Add the operations under "paths".')
  checkBounds(document.paths)
  return document as OpenApiDocument
}

/**
 * The paths once every `$ref` is followed nest at most `DOCUMENT_LIMITS.depth`
 * levels, cycles aside (a chain of 10,000 schemas each naming the next would
 * overflow the validator's compiler), and no schema demands an answer of more
 * than `DOCUMENT_LIMITS.values` characters or items (`minLength: 1e8`, arrays
 * of `minItems` nested: the sandbox generates answers). Each node is measured
 * once (a shared schema too), so this is linear in the document.
 */
const checkBounds = (paths: object): void => {
  const measured = new Map<object, { height: number; weight: number }>()
  const onPath = new Set<object>()
  const at: string[] = ['paths']
  const count = (value: unknown): number =>
    typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : 0
  const refuse = (why: string): never => {
    throw new OpenApiDocumentError(
      `${why} at ${pointer(at.slice(0, 24))}${at.length > 24 ? '/…' : ''}. ${
        why.startsWith('once') ? 'Make the chain of schemas shorter.' : 'Lower it.'
      }`,
    )
  }
  const tooDeep = (): never =>
    refuse(
      `once its $refs are followed, the document nests deeper than ${DOCUMENT_LIMITS.depth} levels`,
    )
  const measure = (value: object, depth: number): { height: number; weight: number } => {
    const known = measured.get(value)
    if (known !== undefined) {
      if (depth + known.height > DOCUMENT_LIMITS.depth) tooDeep()
      return known
    }
    if (depth > DOCUMENT_LIMITS.depth) tooDeep()
    onPath.add(value)
    const node = value as Record<string, unknown>
    let weight = Math.max(count(node.minLength), count(node.minProperties))
    if (!Array.isArray(value) && node.items === undefined)
      weight = Math.max(weight, count(node.minItems))
    if (weight > DOCUMENT_LIMITS.values)
      refuse(
        `a schema demands ${weight} characters, items or properties (over ${DOCUMENT_LIMITS.values})`,
      )
    let height = 0
    for (const [key, child] of Object.entries(value)) {
      if (typeof child !== 'object' || child === null || onPath.has(child)) continue
      at.push(key)
      const below = measure(child, depth + 1)
      height = Math.max(height, 1 + below.height)
      const times = key === 'items' && !Array.isArray(value) ? Math.max(1, count(node.minItems)) : 1
      weight = Math.max(weight, times * Math.max(key === 'items' ? 1 : 0, below.weight))
      if (weight > DOCUMENT_LIMITS.values)
        refuse(
          `a schema demands answers of over ${DOCUMENT_LIMITS.values} values (minItems nested)`,
        )
      at.pop()
    }
    onPath.delete(value)
    const result = { height, weight }
    measured.set(value, result)
    return result
  }
  measure(paths, 1)
}
