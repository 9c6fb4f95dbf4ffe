/** The declaration of each package entry, from dist/. */
export declare const ENTRY_DECLARATIONS: readonly string[]
/** The declaration files the entries reach, as paths relative to `dist`. */
export declare const reachableDeclarations: (
  dist: string,
  entries?: readonly string[],
) => Set<string>
/** Deletes every declaration in `dist` that no entry reaches; returns how many. */
export declare const pruneDeclarations: (dist: string) => number
/** Removes the side-effect imports (`import './x.js'`) from a declaration file's text. */
export declare const withoutSideEffectImports: (text: string) => string
