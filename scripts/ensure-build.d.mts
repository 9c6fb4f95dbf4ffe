/** Runs `node scripts/build.mjs` unless dist/ is newer than every input; returns whether it built. */
export declare const ensureBuild: () => boolean
