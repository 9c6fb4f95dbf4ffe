import type { Plugin } from 'esbuild'

/** esbuild plugin: @apidevtools/json-schema-ref-parser without `import("fs")` literals or a bare `Buffer` (scripts/ref-parser-fs-plugin.mjs). */
export declare const refParserFsPlugin: Plugin
