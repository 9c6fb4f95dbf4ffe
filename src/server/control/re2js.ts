/**
 * RE2 in JavaScript (re2js), for `pathRegExp`: imported with `import('./re2js.js')` on the first
 * pattern, so the CLI's build routes it through its one chunk of lazy parts (scripts/bundle-cli.mjs)
 * and a start never loads it.
 */
export { RE2JS } from 're2js'
