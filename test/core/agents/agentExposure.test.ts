import { describe, expect, it } from 'vitest';
import { exposureRefusal, exposureViolations } from '../../../src/core/agents/agentExposure.js';
import type { Exposure } from '../../../src/core/contributions/exposure.js';
import type { AppContribution } from '../../../src/shared/appContribution.js';
import type { AgentUiApp } from '../../../src/shared/agents.js';

/** The rule alone (docs/rules/names-and-exposure.md#exposure: an app bounds what an agent selects under it): no host, no disk. */

function app(servers: Exposure, prompts: Exposure = { mode: 'off' }, withServer = true): AppContribution {
  const uiApp = { pluginId: 'com.example.hub', appId: 'hub', pluginDir: '/p/hub', dataDir: '/d', stateDir: '/s', sessionRoot: '/r', projectRoot: '/r' };
  return {
    pluginId: 'com.example.hub',
    appId: 'hub',
    providerAppId: 'hub_app',
    name: 'Hub',
    source: 'user',
    pluginDir: '/p/hub',
    entry: { path: 'index.mjs' },
    serverName: 'com.example.hub.hub',
    promptNames: { zh: 'mcp_com_example_hub_hub', en: 'mcp_com_example_hub_hub__en' },
    allowMain: true,
    allowSub: true,
    ...(withServer ? { mcp: { url: 'cmd://node /p/hub/server.mjs', transport: 'stdio' as const, command: 'node', args: ['/p/hub/server.mjs'], env: {}, enabled: true, tags: [], callMeta: {} } } : {}),
    exposure: { mcpServers: { exposure: servers, source: 'inline' }, prompts: { exposure: prompts, source: 'inline' } },
    uiApp,
    meta: {},
  } as AppContribution;
}

const selecting = (over: Partial<AgentUiApp>): AgentUiApp => ({ pluginId: 'com.example.hub', appId: 'hub', mcp: true, prompt: false, mcpServerIds: [], promptIds: [], ...over }) as AgentUiApp;

describe('agent exposure: what an agent may select under an app', () => {
  it("an app's own server and prompts are always its to offer, whatever it exposes", () => {
    const off = app({ mode: 'off' });
    expect(exposureRefusal(off, 'mcpServers', 'hub_app::com.example.hub.hub')).toBeUndefined();
    expect(exposureRefusal(off, 'prompts', 'hub_app::mcp_com_example_hub_hub__en')).toBeUndefined();
  });

  it('off refuses, all allows, a list allows its registry ids and bare names (any provider)', () => {
    expect(exposureRefusal(app({ mode: 'off' }), 'mcpServers', 'aide::memory')).toMatchObject({ message: expect.stringContaining('it exposes none') });
    expect(exposureRefusal(app({ mode: 'all' }), 'mcpServers', 'aide::memory')).toBeUndefined();
    const listed = app({ mode: 'list', names: ['aide::memory', 'search'] });
    expect(exposureRefusal(listed, 'mcpServers', 'aide::memory')).toBeUndefined();
    expect(exposureRefusal(listed, 'mcpServers', 'other::search')).toBeUndefined();
    expect(exposureRefusal(listed, 'mcpServers', 'other::memory')).toMatchObject({ message: expect.stringContaining('it exposes only "aide::memory", "search"') });
  });

  it('a prompt pair counts as one: listing either variant allows both', () => {
    const prompts = app({ mode: 'off' }, { mode: 'list', names: ['aide::guide'] });
    expect(exposureRefusal(prompts, 'prompts', 'aide::guide__en')).toBeUndefined();
    expect(exposureRefusal(prompts, 'prompts', 'aide::guide')).toBeUndefined();
    expect(exposureRefusal(prompts, 'mcpServers', 'aide::guide')).toBeDefined();
  });

  it('names where in the agent each selection outside the exposure is; an app not installed exposes nothing, not even the host’s own', () => {
    const hub = app({ mode: 'list', names: ['memory'] });
    const violations = exposureViolations(
      [
        selecting({ mcpServerIds: ['aide::memory', 'aide::shell'], promptIds: ['aide::guide'] }),
        selecting({ pluginId: 'gone', mcpServerIds: ['x::y', 'chatos::fs', 'memory'], promptIds: ['chatos::reviewer', 'aide::guide__en'] }),
      ],
      (pluginId, appId) => (pluginId === hub.pluginId && appId === hub.appId ? hub : undefined),
    );
    expect(violations.map((v) => [v.at, v.id])).toEqual([
      [['uiApps', 0, 'mcpServerIds', 1], 'aide::shell'],
      [['uiApps', 0, 'promptIds', 0], 'aide::guide'],
      [['uiApps', 1, 'mcpServerIds', 0], 'x::y'],
      [['uiApps', 1, 'mcpServerIds', 1], 'chatos::fs'],
      [['uiApps', 1, 'mcpServerIds', 2], 'memory'],
      [['uiApps', 1, 'promptIds', 0], 'chatos::reviewer'],
      [['uiApps', 1, 'promptIds', 1], 'aide::guide__en'],
    ]);
    expect(violations[3]!.message).toBe('server "chatos::fs" is not offered: app "hub" of plugin "gone" is not installed, so it exposes nothing');
    expect(violations[3]!.hint).toContain('install the plugin');
    expect(violations[3]!.hint).toContain('your own servers ("chatos::…") go under ChatOS\'s own entry');
  });
});
