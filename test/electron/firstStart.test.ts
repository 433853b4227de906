import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDesktopHost } from '../../electron/desktopHost.js';
import { HostApiMethods } from '../../src/shared/hostApi.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Issue 19, first start of a packaged build: the data home does not exist
 * yet; the host creates it and the built-in plugins are trusted as
 * built-ins, with nothing to confirm.
 */
describe('the first start of the desktop app', () => {
  it('creates the data home and trusts the built-in plugins as built-ins', async () => {
    const home = path.join(tempDir(), 'not-yet', '.chatos');
    const desktop = await startDesktopHost({
      host: { home, appRoot: repoRoot, builtinPluginsDir: path.join(repoRoot, 'plugins'), defaultsDir: path.join(repoRoot, 'defaults'), sessionRoot: tempDir() },
      rendererDir: tempDir(),
      version: '1',
      watch: false,
    });
    try {
      expect(fs.statSync(path.join(home, 'chatos')).isDirectory()).toBe(true);
      const listed = await desktop.api.handle({ method: 'apps.list', params: {} });
      if (!listed.ok) throw new Error(JSON.stringify(listed));
      const { plugins } = HostApiMethods['apps.list'].result.parse(listed.result);
      const builtins = plugins.filter((p) => p.source === 'builtin');
      expect(builtins.map((p) => p.id).sort()).toEqual(
        fs
          .readdirSync(path.join(repoRoot, 'plugins'))
          .map((dir) => JSON.parse(fs.readFileSync(path.join(repoRoot, 'plugins', dir, 'plugin.json'), 'utf8')).id)
          .sort(),
      );
      for (const plugin of builtins) expect(plugin.trust, plugin.id).toEqual({ state: 'builtin' });
    } finally {
      await desktop.stop();
    }
  }, 300_000);
});
