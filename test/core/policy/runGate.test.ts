import { describe, expect, it } from 'vitest';
import type { PluginRecord } from '../../../src/shared/appContribution.js';
import type { TrustState } from '../../../src/shared/trust.js';
import { notRunnableRows, RunGate, type RunGateDeps } from '../../../src/core/policy/runGate.js';

/** The run gate alone: a catalog of two folders and a trust store that answers what the test sets. */

const plugin = (over: Partial<PluginRecord> = {}): PluginRecord => ({ id: 'acme.notes', dir: '/roots/user/notes', source: 'user', status: 'loaded', appIds: ['main'], problems: [], ...over });

/** The trust store as the gate reads it: a state per folder, and how often the cached answer was used. */
type TrustPort = RunGateDeps['trust'];

class TestTrust implements TrustPort {
  readonly states = new Map<string, TrustState>();
  runnableNow = new Map<string, boolean>();
  fullReads = 0;
  stateOf(p: PluginRecord): TrustState {
    this.fullReads++;
    return this.states.get(p.dir) ?? { state: 'untrusted' };
  }
  isRunnableNow(p: PluginRecord): boolean {
    return this.runnableNow.get(p.dir) ?? false;
  }
}

function gateOver(plugins: PluginRecord[], roots = ['/roots/user', '/roots/builtin']) {
  const trust = new TestTrust();
  const byDir = new Map(plugins.map((p) => [p.dir, p]));
  const gate = new RunGate({ pluginAt: (dir) => byDir.get(dir), pluginById: (id) => plugins.find((p) => p.id === id), pluginRoots: () => roots, trust });
  return { gate, trust };
}

describe('RunGate', () => {
  it('lets built-in and trusted plugins run, and refuses untrusted, changed and blocked ones with the fix', () => {
    const { gate, trust } = gateOver([plugin()]);
    const target = { pluginId: 'acme.notes', pluginDir: '/roots/user/notes' };
    expect(gate.check(target, 'server')).toMatchObject({
      ok: false,
      code: 'PLUGIN_UNTRUSTED',
      message: 'plugin acme.notes is not trusted, so its server does not run',
      fix: expect.stringContaining('chatos trust acme.notes'),
    });
    trust.states.set('/roots/user/notes', { state: 'trusted', trustedAt: 't', fingerprint: 'f' });
    expect(gate.check(target, 'server')).toEqual({ ok: true });
    trust.states.set('/roots/user/notes', { state: 'changed', trustedAt: 't', fingerprint: 'f', changes: { added: [], removed: [], modified: ['server.mjs'] } });
    expect(gate.check(target, 'backend')).toMatchObject({ ok: false, code: 'PLUGIN_CHANGED', message: expect.stringContaining('its backend does not run') });
    trust.states.set('/roots/user/notes', { state: 'blocked', problems: [{ severity: 'error', code: 'X', file: 'f', path: '', message: 'a link leaves the folder', hint: 'remove the link' }] });
    expect(gate.check(target, 'pages')).toMatchObject({ ok: false, code: 'PLUGIN_BLOCKED', fix: 'remove the link' });
    trust.states.set('/roots/user/notes', { state: 'builtin' });
    expect(gate.check(target, 'prompt')).toEqual({ ok: true });
  });

  it('refuses a plugin that is gone, invalid, or in a root this process does not scan, each saying so', () => {
    const { gate } = gateOver([plugin({ id: 'acme.bad', dir: '/roots/user/bad', status: 'invalid' })]);
    expect(gate.check({ pluginId: 'acme.gone', pluginDir: '/roots/user/gone' }, 'server')).toMatchObject({ code: 'PLUGIN_MISSING' });
    expect(gate.check({ pluginId: 'acme.gone' }, 'backend')).toMatchObject({ code: 'PLUGIN_MISSING' });
    expect(gate.check({ pluginId: 'acme.bad', pluginDir: '/roots/user/bad' }, 'server')).toMatchObject({ code: 'PLUGIN_INVALID', fix: 'fix its problems first: chatos validate /roots/user/bad' });
    expect(gate.check({ pluginId: 'acme.far', pluginDir: '/elsewhere/far' }, 'server')).toMatchObject({ code: 'PLUGIN_NOT_SCANNED', fix: expect.stringContaining('chatos roots add /elsewhere') });
  });

  it('answers a call from the cached trust answer while it holds, and reads the folder only to say why it refuses', () => {
    const { gate, trust } = gateOver([plugin()]);
    const target = { pluginId: 'acme.notes', pluginDir: '/roots/user/notes' };
    trust.runnableNow.set('/roots/user/notes', true);
    expect(gate.checkCached(target, 'server')).toEqual({ ok: true });
    expect(trust.fullReads).toBe(0);
    trust.runnableNow.set('/roots/user/notes', false);
    expect(gate.checkCached(target, 'server')).toMatchObject({ code: 'PLUGIN_UNTRUSTED' });
    expect(trust.fullReads).toBe(1);
  });

  it("marks the registry rows whose plugin may not run, and leaves the host's rows and missing ones unmarked", () => {
    const { gate, trust } = gateOver([plugin(), plugin({ id: 'acme.ok', dir: '/roots/user/ok' })]);
    trust.runnableNow.set('/roots/user/ok', true);
    const rows = [
      { id: 'acme::notes', source: { kind: 'plugin' as const, pluginId: 'acme.notes', pluginDir: '/roots/user/notes', appId: 'main' } },
      { id: 'acme::ok', source: { kind: 'plugin' as const, pluginId: 'acme.ok', pluginDir: '/roots/user/ok', appId: 'main' } },
      { id: 'acme::gone', source: { kind: 'plugin' as const, pluginId: 'acme.gone', pluginDir: '/roots/user/gone', appId: 'main' }, missing: { reason: 'gone' } },
      { id: 'chatos::x', source: { kind: 'host' as const } },
    ];
    expect([...notRunnableRows(rows, gate, 'server').keys()]).toEqual(['acme::notes']);
  });
});
