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
 */
export const refParserFsPlugin = {
  name: 'ref-parser-fs',
  setup(build) {
    build.onLoad(
      { filter: /json-schema-ref-parser[\\/]dist[\\/]lib[\\/]resolvers[\\/]file\.js$/ },
      async (args) => {
        const source = await readFile(args.path, 'utf8')
        const contents = source.replace(
          'await import("fs")',
          'await import(["node", "fs"].join(":"))',
        )
        if (contents === source)
          throw new Error(
            'ref-parser-fs: the resolver no longer imports "fs" as expected; update the plugin.',
          )
        return { contents, loader: 'js' }
      },
    )
  },
}
