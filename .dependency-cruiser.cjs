/**
 * The layering rules, checked by `npm run check:layers` (part of `npm test`).
 * Faces: src/api, src/cli, src/serve, src/pageHost, electron/ and the renderer.
 * See docs/contributing/layering.md#checked-layering.
 */
const FACES = '^(src/(api|cli|serve|pageHost)|electron|renderer)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-no-electron',
      comment: 'The core runs without Electron (the CLI and chatos serve drive it too): only electron/ imports electron.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(node_modules/)?electron(/|$)' },
    },
    {
      name: 'core-no-face',
      comment: 'The core is called by the faces, never the other way round.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: FACES },
    },
    {
      name: 'shared-is-contracts',
      comment: 'src/shared holds the contracts every face and the core share: it imports neither.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: `${FACES}|^src/core/` },
    },
    {
      name: 'faces-no-connections',
      comment: "A face asks the core's operations; the connections to MCP servers are the core's own.",
      severity: 'error',
      from: { path: FACES },
      to: { path: '^src/core/mcp/connection/' },
    },
    {
      name: 'renderer-only-shared-types',
      comment: 'The renderer may use src/shared for types only: a value would pull zod or Node code into the bundle.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'renderer-only-shared',
      comment: 'Of the host source, the renderer sees only the contracts in src/shared.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'renderer-no-node',
      comment: 'The renderer runs in a browser: no Node built-in.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'one-yaml-loader',
      comment: 'YAML from outside is read through src/core/problems/yamlLoader.ts, which bounds what its aliases expand to; js-yaml is imported nowhere else (tests may read what they wrote).',
      severity: 'error',
      from: { path: '^(src|electron|scripts|plugins|runtime|bin)/', pathNot: '^src/core/problems/yamlLoader\\.ts$' },
      to: { path: '^(node_modules/)?js-yaml(/|$)' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only ones included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // A message per violation and nothing else.
    reporterOptions: { text: { highlightFocused: false } },
  },
};
