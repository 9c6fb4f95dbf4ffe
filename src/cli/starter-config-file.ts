/**
 * Where `petstore-sandbox init` writes without a file name (apart from the
 * writer, which a plain start does not load).
 *
 * @example
 * parseCliArgs(['init']) // { kind: 'init', file: STARTER_CONFIG_FILE }
 */
export const STARTER_CONFIG_FILE = 'petstore-sandbox.config.mjs'
