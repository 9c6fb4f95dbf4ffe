// Used by scripts/build.mjs.
import { readFile } from 'node:fs/promises'

/**
 * @apidevtools/json-schema-ref-parser reads a document's files with
 * `await import("fs")` in its file resolver, called only for a file path
 * (the `openapi` option as a path, in Node). The published chunks are
 * neutral (Node and browsers share them): a literal `import("fs")` would not
 * build here, nor in a user's browser bundle. It becomes an import of a
 * computed name, as the library already does for its HTTP modules: Node
 * loads `node:fs` when a path is read; a bundler leaves it alone.
 *
 * The library also calls `Buffer.isBuffer` on every document it parses, an
 * object given as is included (lib/index.js), and browsers have no `Buffer`:
 * the `openapi` option failed in a page with "Buffer is not defined". Each
 * `Buffer.isBuffer(x)` becomes `globalThis.Buffer?.isBuffer(x)`: the same in
 * Node, false where no Buffer exists (nothing there is one). Decision 0051.
 */
export const refParserFsPlugin = {
  name: 'ref-parser-fs',
  setup(build) {
    build.onLoad(
      { filter: /json-schema-ref-parser[\\/]dist[\\/]lib[\\/].*\.js$/ },
      async (args) => {
        const source = await readFile(args.path, 'utf8')
        let contents = source.replaceAll('Buffer.isBuffer(', 'globalThis.Buffer?.isBuffer(')
        if (/[\\/]lib[\\/]index\.js$/.test(args.path) && contents === source)
          throw new Error(
            'ref-parser-fs: lib/index.js no longer calls Buffer.isBuffer as expected; update the plugin.',
          )
        if (/[\\/]resolvers[\\/]file\.js$/.test(args.path)) {
          const withFs = contents.replace(
            'await import("fs")',
            'await import(["node", "fs"].join(":"))',
          )
          if (withFs === contents)
            throw new Error(
              'ref-parser-fs: the resolver no longer imports "fs" as expected; update the plugin.',
            )
          contents = withFs
        }
        return contents === source ? undefined : { contents, loader: 'js' }
      },
    )
  },
}
