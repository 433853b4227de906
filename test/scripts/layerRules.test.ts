import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

const depcruise = path.join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/**
 * The project's own .dependency-cruiser.cjs on a small tree laid out like
 * the repo (src/core, src/shared, src/api, renderer/src, test), so a rule that
 * stopped matching (a renamed folder, a typo in a path) fails here.
 */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = tempDir();
  fs.copyFileSync(path.join(repoRoot, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', jsx: 'react-jsx' } }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const run = spawnSync(process.execPath, [depcruise, 'src', 'renderer', 'test', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const allowed = {
  'src/shared/contract.ts': 'export interface View { id: string }\nexport const LIMIT = 3;\n',
  'src/core/service.ts': "import type { View } from '../shared/contract.js';\nexport const view = (id: string): View => ({ id });\n",
  // A facade shows a face what it may use of the core; a module wires the service; host.ts orders the modules.
  'src/core/facades/views.ts': "import { view } from '../service.js';\nexport const views = { view };\n",
  'src/core/modules/viewsModule.ts': "import { views } from '../facades/views.js';\nexport const viewsModule = () => views;\n",
  'src/core/host.ts': "import { viewsModule } from './modules/viewsModule.js';\nexport const createHost = () => ({ views: viewsModule() });\n",
  'src/core/settingsServer/server.ts': "import { view } from '../service.js';\nexport const serve = () => view('s');\n",
  'src/api/handler.ts': "import { createHost } from '../core/host.js';\nimport { views } from '../core/facades/views.js';\nexport const handle = () => [createHost(), views.view('x')];\n",
  // A CLI command's definition loads its action, and the core with it, when the command runs.
  'src/cli/actions/show.ts': "import { views } from '../../core/facades/views.js';\nexport const show = () => views.view('c');\n",
  'src/cli/commands/show.ts': "import type { View } from '../../shared/contract.js';\nexport const run = async (): Promise<View> => (await import('../actions/show.js')).show();\n",
  'renderer/src/page.ts': "import type { View } from '../../src/shared/contract';\nexport const show = (v: View) => v.id;\n",
  // A browser test drives a serve process: its helpers load no host.
  'test/helpers/mcpYaml.ts': 'export const writeMcpYaml = (home: string) => home;\n',
  'test/helpers/hostWorld.ts': "import { createHost } from '../../src/core/host.js';\nexport const world = () => createHost();\n",
  'test/ui/light.browser.test.ts': "import { writeMcpYaml } from '../helpers/mcpYaml.js';\nexport const home = writeMcpYaml('h');\n",
};

describe('the layering rules (.dependency-cruiser.cjs)', () => {
  it('pass a tree that keeps them', () => {
    expect(cruise(allowed)).toMatchObject({ status: 0 });
  });

  // One breach of each rule, cruised in one run (a run takes seconds); each must be named.
  const breaches: Record<string, Record<string, string>> = {
    'core-no-electron': { 'src/core/window.ts': "import { app } from 'electron';\nexport const quit = () => app.quit();\n" },
    'core-no-face': { 'src/core/back.ts': "import { handle } from '../api/handler.js';\nexport const again = handle;\n" },
    // A face that reaches past the facades into a core service (issue 26: faces see host.ts, the facades and src/shared only).
    'faces-see-facades': { 'src/cli/direct.ts': "import { view } from '../core/service.js';\nexport const direct = () => view('y');\n" },
    'modules-wired-by-host': { 'src/core/wiring.ts': "import { viewsModule } from './modules/viewsModule.js';\nexport const wired = viewsModule;\n" },
    'settings-server-is-a-face': { 'src/core/reach.ts': "import { serve } from './settingsServer/server.js';\nexport const reach = serve;\n" },
    'shared-is-contracts': { 'src/shared/leak.ts': "import { view } from '../core/service.js';\nexport const leak = view;\n" },
    // A command definition that loads its action (and so the core) when `chatos` starts, not when the command runs.
    'cli-actions-load-when-run': { 'src/cli/commands/eager.ts': "import { show } from '../actions/show.js';\nexport const eager = show;\n" },
    'faces-no-connections': {
      'src/core/mcp/connection/pool.ts': 'export const pool = 1;\n',
      'src/api/reach.ts': "import { pool } from '../core/mcp/connection/pool.js';\nexport const size = pool;\n",
    },
    'renderer-only-shared-types': { 'renderer/src/value.ts': "import { LIMIT } from '../../src/shared/contract';\nexport const limit = LIMIT;\n" },
    'renderer-only-shared': { 'renderer/src/core.ts': "import type { View } from '../../src/core/service';\nexport type Mine = View;\n" },
    'renderer-no-node': { 'renderer/src/disk.ts': "import * as fs from 'node:fs';\nexport const exists = fs.existsSync;\n" },
    'one-yaml-loader': { 'src/core/loose.ts': "import { load } from 'js-yaml';\nexport const read = (text: string) => load(text);\n" },
    // Through a helper: every file a browser test loads counts.
    'browser-tests-light': { 'test/ui/heavy.browser.test.ts': "import { world } from '../helpers/hostWorld.js';\nexport const made = world();\n" },
    'no-circular': { 'src/core/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n", 'src/core/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n" },
  };

  it('fail on a breach of each, naming the rule broken', () => {
    const { status, output } = cruise(Object.assign({}, allowed, ...Object.values(breaches)));
    expect(status).not.toBe(0);
    for (const rule of Object.keys(breaches)) expect(output).toContain(`error ${rule}:`);
  });
});
