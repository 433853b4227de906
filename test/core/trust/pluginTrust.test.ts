import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PluginRecord } from '../../../src/shared/appContribution.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { Fingerprinter } from '../../../src/core/trust/pluginFingerprint.js';
import { PluginTrust, TRUST_RECHECK_MS } from '../../../src/core/trust/pluginTrust.js';
import { tempDir } from '../../helpers/tempDir.js';

/** A real plugin folder and a real admin DB on disk; only the clock is ours, to step past the recheck window. */
async function setup() {
  const dir = path.join(tempDir(), 'com.example.t');
  fs.mkdirSync(path.join(dir, 'mcp'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.json'), '{"id":"com.example.t"}');
  fs.writeFileSync(path.join(dir, 'mcp', 'server.mjs'), '// v1\n');
  const clock = {
    t: 1_000_000,
    now() {
      return this.t;
    },
  };
  const store = await RecordsStore.open(path.join(tempDir(), 'admin.db.sqlite'), { clock });
  let walks = 0;
  const fingerprinter = new (class extends Fingerprinter {
    override fingerprint(folder: string) {
      walks++;
      return super.fingerprint(folder);
    }
  })();
  const trust = new PluginTrust(store, fingerprinter, clock);
  const plugin: PluginRecord = { id: 'com.example.t', dir, source: 'user', status: 'loaded', appIds: [], problems: [] };
  return { dir, clock, store, trust, plugin, walks: () => walks };
}

describe('PluginTrust.isRunnableNow (the tool call path)', () => {
  it('walks the folder once per window, and sees untrust, re-trust and a rescan at once', async () => {
    const { dir, clock, store, trust, plugin, walks } = await setup();
    expect(trust.isRunnableNow(plugin)).toBe(false);
    trust.trust(plugin as PluginRecord & { id: string }, { servers: [], pages: [] });
    expect(trust.isRunnableNow(plugin)).toBe(true);
    const after = walks();
    for (let i = 0; i < 100; i++) expect(trust.isRunnableNow(plugin)).toBe(true);
    expect(walks()).toBe(after);

    // An edit nothing reported is seen once the window has passed.
    fs.appendFileSync(path.join(dir, 'mcp', 'server.mjs'), '// edited\n');
    clock.t += TRUST_RECHECK_MS;
    expect(trust.isRunnableNow(plugin)).toBe(false);
    expect(trust.stateOf(plugin).state).toBe('changed');

    // Trusting again changes the trust records: the next call sees it without waiting.
    trust.trust(plugin as PluginRecord & { id: string }, { servers: [], pages: [] });
    expect(trust.isRunnableNow(plugin)).toBe(true);
    // So does untrusting.
    trust.untrust('com.example.t');
    expect(trust.isRunnableNow(plugin)).toBe(false);

    // A rescan (the watcher saw the folder change) forgets the answer: an edit is seen at the next call.
    trust.trust(plugin as PluginRecord & { id: string }, { servers: [], pages: [] });
    expect(trust.isRunnableNow(plugin)).toBe(true);
    fs.writeFileSync(path.join(dir, 'mcp', 'extra.mjs'), 'export {};\n');
    trust.forgetRecentChecks();
    expect(trust.isRunnableNow(plugin)).toBe(false);
    await store.close();
  });

  it('sees code rewritten at the same size with its old mtime put back (as tar or rsync -a do): file hashes are not reused then', async () => {
    const { dir, clock, store, trust, plugin } = await setup();
    const server = path.join(dir, 'mcp', 'server.mjs');
    const whole = 1_700_000_000; // whole seconds, so putting it back is exact
    fs.utimesSync(server, whole, whole);
    trust.trust(plugin as PluginRecord & { id: string }, { servers: [], pages: [] });
    expect(trust.isRunnableNow(plugin)).toBe(true);

    const before = fs.statSync(server);
    fs.writeFileSync(server, '// v2\n');
    fs.utimesSync(server, whole, whole);
    const after = fs.statSync(server);
    expect([after.mtimeMs, after.size, after.ino]).toEqual([before.mtimeMs, before.size, before.ino]);

    clock.t += TRUST_RECHECK_MS;
    expect(trust.isRunnableNow(plugin)).toBe(false);
    expect(trust.stateOf(plugin).state).toBe('changed');
    await store.close();
  });
});

describe('Fingerprinter: what trust can pin', () => {
  it('pins a file named like an Object.prototype member (__proto__, constructor) as any other', async () => {
    const { dir, clock, store, trust, plugin } = await setup();
    fs.writeFileSync(path.join(dir, '__proto__'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(dir, 'constructor'), 'module.exports = 1;\n');
    trust.trust(plugin as PluginRecord & { id: string }, { servers: [], pages: [] });
    for (const name of ['__proto__', 'constructor']) {
      fs.writeFileSync(path.join(dir, name), 'module.exports = 2;\n');
      clock.t += TRUST_RECHECK_MS;
      expect(trust.stateOf(plugin)).toMatchObject({ state: 'changed', changes: { modified: [name] } });
      fs.writeFileSync(path.join(dir, name), 'module.exports = 1;\n');
    }
    await store.close();
  });

  it.skipIf(process.platform === 'win32')('a FIFO in the folder blocks the plugin (never read, so never hangs)', async () => {
    const { dir, store, trust, plugin } = await setup();
    execFileSync('mkfifo', [path.join(dir, 'mcp', 'lib.mjs')]);
    const state = trust.stateOf(plugin);
    expect(state).toMatchObject({ state: 'blocked', problems: [expect.objectContaining({ code: 'PLUGIN_SPECIAL_FILE', file: path.join(dir, 'mcp', 'lib.mjs') })] });
    expect(() => trust.trust(plugin as PluginRecord & { id: string }, { servers: [], pages: [] })).toThrow(/cannot be trusted: "mcp\/lib.mjs" is a FIFO/);
    await store.close();
  });
});
