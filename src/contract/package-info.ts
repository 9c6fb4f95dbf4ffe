/**
 * The package's name and version, for what the sandbox writes about itself
 * (HAR's `creator`). The core cannot read package.json in every runtime, so
 * it is written here; a test checks it against package.json.
 */
export const PACKAGE_NAME = 'petstore-sandbox'
export const PACKAGE_VERSION = '0.1.0'
