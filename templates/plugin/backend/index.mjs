// The plugin's backend: ChatOS runs it in its own Node process (never in the
// host's), started on the page's first host.backend.invoke() and restarted
// when a file in this folder changes. Only what is JSON goes in and out.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

// ctx: { pluginId, pluginDir, dataDir, stateDir, sessionRoot, projectRoot }; the folders exist.
export function createUiAppsBackend(ctx) {
  const visits = path.join(ctx.stateDir, 'visits.txt');
  return {
    methods: {
      // host.backend.invoke('hello', { name }) in the page resolves with what this returns.
      async hello({ name = 'there' } = {}) {
        const count = Number(await fs.readFile(visits, 'utf8').catch(() => '0')) + 1;
        await fs.writeFile(visits, String(count));
        return { text: `Hello, ${name}! This is visit ${count}.` };
      },
    },
    // Runs when ChatOS stops the backend (quit, uninstall, a changed file); at most 2 s.
    dispose() {},
  };
}
