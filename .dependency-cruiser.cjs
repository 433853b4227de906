/**
 * The layering rules, checked by `npm run check:layers` (part of `npm test`).
 * Faces: src/api, src/cli, src/serve, src/pageHost, electron/ and the renderer.
 * See docs/contributing/layering.md#checked-layering and docs/contributing/architecture.md.
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
      name: 'faces-see-facades',
      comment:
        'A face reaches the core through host.ts and the facades (src/core/facades/), one per domain, and the contracts in src/shared: never a service, an operation or a module directly (docs/contributing/architecture.md).',
      severity: 'error',
      from: { path: FACES },
      to: { path: '^src/core/', pathNot: '^src/core/(host[.]ts|facades/)' },
    },
    {
      name: 'modules-wired-by-host',
      comment: 'The subsystem modules (src/core/modules/) are the wiring: only host.ts and other modules import them; a service never depends on how it is wired.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/core/(host[.]ts|modules/)' },
      to: { path: '^src/core/modules/' },
    },
    {
      name: 'settings-server-is-a-face',
      comment: 'The settings server drives the core as the HostApi does: nothing in the core imports it but the module that wires it.',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '^src/core/(settingsServer|modules)/' },
      to: { path: '^src/core/settingsServer/' },
    },
    {
      name: 'cli-actions-load-when-run',
      comment:
        "`chatos` starts by defining its commands (src/cli/commands/): they reach an action (src/cli/actions/), the core or the serve face only for types or with import() when the command runs, so --help and bad usage load none of it (src/cli/lazyAction.ts). The errors and the limits' facades import nothing heavy.",
      severity: 'error',
      from: { path: '^src/cli/(main[.]ts|commands/)' },
      to: { path: '^src/(cli/actions|core|serve)/', pathNot: '^src/core/facades/(errors|limits)[.]ts$', dependencyTypesNot: ['type-only', 'dynamic-import'] },
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
      name: 'browser-tests-light',
      comment:
        'A browser test drives a chatos serve process: it loads no host of its own. Each file loads its imports anew in its worker, and the host is some 470 modules (seconds per file); test/helpers/mcpYaml.ts and freePort.ts are the light helpers. uiAppBridge runs serve in-process, on purpose.',
      severity: 'error',
      from: { path: '\\.browser\\.test\\.ts$', pathNot: '^test/serve/uiAppBridge\\.browser\\.test\\.ts$' },
      to: { path: '^src/core/host\\.ts$', reachable: true },
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
