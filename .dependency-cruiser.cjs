/**
 * The layering of src/ (docs/architecture.md, docs/decisions/0009-one-layering.md): each
 * folder imports only from the folders below it (and from itself). `npm test` runs this
 * check; a folder cycle or an upward import fails it.
 */
const LAYERS = [
  ['contract'],
  ['http'],
  ['faults'],
  ['validation'],
  ['auth', 'rate-limit', 'db', 'clock', 'journal'],
  ['verify'],
  ['operations'],
  ['openapi'],
  ['judge', 'pact'],
  ['scenarios'],
  ['state'],
  ['pipeline'],
  ['upstream'],
  ['sandbox'],
  ['extensions'],
  ['handlers'],
  ['files'],
  ['runtimes', 'server'],
  ['cli'],
]

const upward = LAYERS.flatMap((folders, level) =>
  folders.map((folder) => {
    const notBelow = LAYERS.slice(level)
      .flat()
      .filter((other) => other !== folder)
    return {
      name: `layer-${folder}`,
      comment: `src/${folder} may import only from the folders below it: not ${notBelow.join(', ')}.`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${notBelow.join('|')})/` },
    }
  }),
)

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules may not depend on each other in a cycle.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-entries-below',
      comment:
        'The package entries (src/index.ts, src/core-api.ts) are the top: nothing imports them.',
      severity: 'error',
      from: { path: '^src/(?!index\\.ts$|core-api\\.ts$|runtimes/|server/index\\.ts$)' },
      to: { path: '^src/(index|core-api)\\.ts$' },
    },
    {
      name: 'core-is-runtime-free',
      comment: 'Below the adapters nothing imports node:* (the core runs in browsers too).',
      severity: 'error',
      from: {
        path: '^src/(contract|http|faults|validation|auth|rate-limit|db|clock|journal|verify|operations|openapi|judge|scenarios|state|pipeline|upstream|sandbox|extensions|handlers)/',
        // The Redis state (issue 13) is Node-only, like its client: it is imported on demand
        // only with the `store` option, never by a browser build.
        pathNot: '^src/state/redis/',
      },
      to: { dependencyTypes: ['core'] },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '(^|/)(dist|node_modules)/' },
  },
}
