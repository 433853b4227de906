import { describe, expect, it } from 'vitest';
import type { AppContribution, PluginRecord } from '../../../src/shared/appContribution.js';
import type { RunGateAnswer, RunTarget } from '../../../src/core/policy/runGate.js';
import { BackendResolver, type BackendResolverDeps } from '../../../src/core/uiApps/backendResolver.js';

/** Whether a plugin's backend may run and with what, from a catalog and a run gate the test sets. */

const plugin = (over: Partial<PluginRecord> = {}): PluginRecord => ({
  id: 'acme.notes',
  dir: '/plugins/notes',
  source: 'user',
  status: 'loaded',
  appIds: ['main'],
  backendEntry: '/plugins/notes/backend.mjs',
  problems: [],
  ...over,
});

type RunGatePort = BackendResolverDeps['runGate'];

class TestRunGate implements RunGatePort {
  answer: RunGateAnswer = { ok: true };
  readonly asked: RunTarget[] = [];
  check(target: RunTarget): RunGateAnswer {
    this.asked.push(target);
    return this.answer;
  }
}

function resolverOver(plugins: PluginRecord[], apps: Partial<AppContribution>[] = []) {
  const runGate = new TestRunGate();
  const resolver = new BackendResolver({
    catalog: { pluginById: (id) => plugins.find((p) => p.id === id), apps: apps as AppContribution[] },
    runGate,
    home: { pluginDataDir: (id) => `/home/data/${id}`, pluginStateDir: (id) => `/home/state/${id}` },
    sessionRoot: '/session',
    projectRoot: '/project',
  });
  return { resolver, runGate };
}

describe('BackendResolver', () => {
  it("gives a trusted plugin's backend its entry and the plugin's own folders", () => {
    const { resolver, runGate } = resolverOver([plugin()]);
    expect(resolver.resolve('acme.notes')).toEqual({
      ok: true,
      entry: '/plugins/notes/backend.mjs',
      ctx: { pluginId: 'acme.notes', pluginDir: '/plugins/notes', dataDir: '/home/data/acme.notes', stateDir: '/home/state/acme.notes', sessionRoot: '/session', projectRoot: '/project' },
    });
    expect(runGate.asked).toEqual([{ pluginId: 'acme.notes' }]);
  });

  it("gives it its UI app's folders when it has one", () => {
    const uiApp = { pluginDir: '/plugins/notes', dataDir: '/d', stateDir: '/s', sessionRoot: '/sr', projectRoot: '/pr' };
    const { resolver } = resolverOver([plugin()], [{ pluginDir: '/plugins/notes', uiApp } as Partial<AppContribution>]);
    expect(resolver.resolve('acme.notes')).toMatchObject({ ok: true, ctx: { pluginId: 'acme.notes', ...uiApp } });
  });

  it('says a plugin without a backend has none before asking the gate, and refuses with the gate words otherwise', () => {
    const { resolver, runGate } = resolverOver([plugin({ backendEntry: undefined })]);
    runGate.answer = { ok: false, code: 'PLUGIN_UNTRUSTED', message: 'plugin acme.notes is not trusted', fix: 'chatos trust acme.notes' };
    expect(resolver.resolve('acme.notes')).toEqual({ ok: false, message: 'plugin acme.notes declares no backend' });
    expect(runGate.asked).toEqual([]);

    const trusted = resolverOver([plugin()]);
    trusted.runGate.answer = runGate.answer;
    expect(trusted.resolver.resolve('acme.notes')).toEqual({ ok: false, message: 'plugin acme.notes is not trusted; chatos trust acme.notes' });
    // A plugin that is gone is the gate's to word (it is missing), not "declares no backend".
    trusted.runGate.answer = { ok: false, code: 'PLUGIN_MISSING', message: 'plugin acme.gone is not installed', fix: 'install it again' };
    expect(trusted.resolver.resolve('acme.gone')).toEqual({ ok: false, message: 'plugin acme.gone is not installed; install it again' });
  });
});
