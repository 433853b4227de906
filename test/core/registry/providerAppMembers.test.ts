import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAgent } from '../../../src/core/agents/agentResolver.js';
import { GatewayError } from '../../../src/core/tools/toolGateway.js';
import type { Host } from '../../../src/core/host.js';
import { caller, GATEWAY_SERVER, pidsOf, startTestHost, textOf, trustPlugin } from '../../helpers/gatewayHost.js';
import { writeProviderDb } from '../../helpers/originalHome.js';
import { writePlugin } from '../../helpers/plugins.js';
import { repoRoot } from '../../helpers/tempDir.js';

/**
 * docs/rules/registry.md#provider-app-ids: "a plugin may name the app it belongs to with providerAppId (the
 * built-in git/wsl already set it)", and the original ships both the app's own
 * git_app/plugin.json and a built-in copy. Here: the built-in Git and WSL
 * apps, plugins written as the seed's originals (providerAppId git_app / wsl),
 * and a seed-001 data home where git_app and wsl keep their own databases.
 */

const USER_GIT = 'com.leeoohoo.gitapp';
const USER_WSL = 'com.leeoohoo.wslapp';
const STRANGER = 'com.example.untrusted.git';
const userGitServer = `git_app::${USER_GIT}.git`;
const builtinGitServer = 'git_app::chatos.git.git';
const strangerServer = `git_app::${STRANGER}.git`;

/** A plugin the way the original's git_app/wsl plugin.json is written: it names its provider app, brings a server (the gateway fixture) and a zh/en prompt. */
function writeOriginalStylePlugin(root: string, folder: string, id: string, providerAppId: string, appId: string): void {
  writePlugin(
    root,
    folder,
    {
      manifestVersion: 1,
      id,
      name: `${appId} (original)`,
      version: '0.1.0',
      providerAppId,
      apps: [
        {
          id: appId,
          name: appId,
          entry: { type: 'module', path: 'app/index.mjs' },
          ai: { mcp: { entry: 'mcp/server.mjs', command: 'node', allowMain: true, allowSub: true }, mcpPrompt: { title: appId, zh: 'prompts/zh.md', en: 'prompts/en.md' } },
        },
      ],
    },
    {
      'app/index.mjs': 'export function mount() {}\n',
      'mcp/server.mjs': `import ${JSON.stringify(GATEWAY_SERVER)};\n`,
      'prompts/zh.md': `${id} 的提示`,
      'prompts/en.md': `${id} prompt`,
    },
  );
}

async function seed001World(extra: (pluginRoot: string) => void = () => {}) {
  const t = await startTestHost(
    async ({ home, pluginRoot }) => {
      await writeProviderDb(home, 'git_app', 'git_own');
      await writeProviderDb(home, 'wsl', 'wsl_own');
      writeOriginalStylePlugin(pluginRoot, 'git_app', USER_GIT, 'git_app', 'git');
      writeOriginalStylePlugin(pluginRoot, 'wsl', USER_WSL, 'wsl', 'wsl');
      writeOriginalStylePlugin(pluginRoot, 'stranger', STRANGER, 'git_app', 'git');
      extra(pluginRoot);
    },
    { builtinPluginsDir: path.join(repoRoot, 'plugins') },
  );
  trustPlugin(t.host, USER_GIT);
  trustPlugin(t.host, USER_WSL);
  return t;
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused, and it ran');
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const agentOf = (host: Host, input: Parameters<Host['agents']['create']>[0]) =>
  resolveAgent(host.agents.create(input), { registry: host.registry, catalog: host.plugins.catalog, runGate: host.plugins.runGate });

describe('many plugins, one provider app (issue 42 item 1)', () => {
  it('the built-in Git and WSL apps, original-style plugins and the apps own DBs all load and register under git_app / wsl, and nothing is granted', async () => {
    const { host } = await seed001World();
    const status = (id: string) => host.plugins.catalog.plugins.find((p) => p.id === id)?.status;
    for (const id of ['chatos.git', 'chatos.wsl', USER_GIT, USER_WSL, STRANGER]) expect(status(id), id).toBe('loaded');
    expect(host.plugins.catalog.problems.filter((p) => p.severity === 'error')).toEqual([]);

    const servers = ids(host.registry.listServers());
    expect(servers).toEqual(expect.arrayContaining([builtinGitServer, userGitServer, strangerServer, 'git_app::git_own', 'wsl::chatos.wsl.wsl', `wsl::${USER_WSL}.wsl`, 'wsl::wsl_own']));
    const prompts = ids(host.registry.listPrompts());
    expect(prompts).toEqual(
      expect.arrayContaining([
        `git_app::mcp_com_leeoohoo_gitapp_git`,
        `git_app::mcp_com_leeoohoo_gitapp_git__en`,
        'git_app::mcp_chatos_git_git',
        'git_app::git_app_own_prompt',
        `wsl::mcp_com_leeoohoo_wslapp_wsl`,
      ]),
    );
    // The registry says which plugin brought what.
    expect(host.registry.getServer(userGitServer)?.source).toMatchObject({ kind: 'plugin', pluginId: USER_GIT });
    expect(host.registry.getServer(builtinGitServer)?.source).toMatchObject({ kind: 'plugin', pluginId: 'chatos.git' });
    expect(host.registry.getServer('git_app::git_own')?.source).toMatchObject({ kind: 'app-db' });
    expect(host.registry.listApps().find((a) => a.appId === 'git_app')?.origins).toEqual(['app-db', 'plugin:chatos.git', `plugin:${STRANGER}`, `plugin:${USER_GIT}`]);

    expect(host.registry.listGrants('server')).toEqual([]);
    expect(host.registry.listGrants('prompt')).toEqual([]);
  });

  it("a grant to one plugin's server gives nothing of the other plugins' under the same app", async () => {
    const { host } = await seed001World();
    const asWsl = caller('conv-w', { appId: 'wsl' });
    expect(host.tools.visibleServers(asWsl).map((s) => s.id)).not.toContain(userGitServer);

    host.registry.grantMcpServerAccess('wsl', userGitServer);
    const visible = host.tools.visibleServers(asWsl).map((s) => s.id);
    expect(visible).toContain(userGitServer);
    expect(visible.filter((id) => id.startsWith('git_app::') && id !== userGitServer)).toEqual([]);
    expect(textOf((await host.tools.call(asWsl, 'mcp_com_leeoohoo_gitapp_git_echo', { text: 'granted' })).result)).toBe('granted');
    expect((await refusal(host.tools.call(asWsl, 'mcp_chatos_git_git_status', {}))).code).toBe('NOT_GRANTED');
    expect(host.registry.hasPromptAccess('wsl', 'git_app::mcp_com_leeoohoo_gitapp_git')).toBe(false);
  });

  it('joining grants nothing: a plugin acting for itself (its page, its agents) owns only what it registered, not the app’s other rows', async () => {
    const { host } = await seed001World();
    const app = host.plugins.catalog.apps.find((a) => a.pluginId === USER_GIT)!;
    const view = host.plugins.pageRegistry(app);
    expect(view.appId).toBe('git_app');
    expect(view.servers.map((s) => s.id)).toEqual([userGitServer]);
    expect(view.prompts.every((p) => p.id.startsWith('git_app::mcp_com_leeoohoo_gitapp_git'))).toBe(true);

    // An agent its page made selects the built-in Git server and git_app's own: neither is its plugin's, and nothing was granted.
    const pageAgent = agentOf(host, {
      name: 'page agent',
      hostAppId: 'git_app',
      ownerApp: { pluginId: USER_GIT, appId: 'git' },
      uiApps: [{ pluginId: USER_GIT, appId: 'git', mcp: true, prompt: true, mcpServerIds: [], promptIds: [] }],
    });
    expect(pageAgent.serverIds).toEqual([userGitServer]);
    expect(host.registry.hasMcpServerAccess('git_app', builtinGitServer, USER_GIT)).toBe(false);
    expect(host.registry.hasMcpServerAccess('git_app', 'git_app::git_own', USER_GIT)).toBe(false);
    const asPage = { ...caller('conv-p', { appId: 'git_app' }), asPlugin: USER_GIT };
    expect((await refusal(host.tools.call(asPage, 'mcp_chatos_git_git_status', {}))).code).toBe('NOT_GRANTED');
    expect(textOf((await host.tools.call(asPage, 'mcp_com_leeoohoo_gitapp_git_echo', { text: 'own' })).result)).toBe('own');
  });

  it('an untrusted plugin that joins git_app runs nothing and its prompt reaches no agent, while the trusted ones work', async () => {
    const { host } = await seed001World();
    const asGitApp = caller('conv-g', { appId: 'git_app' });
    const refused = await refusal(host.tools.call(asGitApp, 'mcp_com_example_untrusted_git_git_echo', { text: 'x' }));
    expect(refused.code).toBe('NOT_RUNNABLE');
    expect(pidsOf(host, strangerServer)).toEqual([]);
    const listed = await host.tools.list(asGitApp);
    expect(listed.tools.filter((t) => t.serverId === strangerServer)).toEqual([]);
    expect(listed.tools.map((t) => t.name)).toContain('mcp_com_leeoohoo_gitapp_git_echo');

    const agent = agentOf(host, {
      name: 'git_app agent',
      hostAppId: 'git_app',
      uiApps: [
        { pluginId: STRANGER, appId: 'git', mcp: true, prompt: true, mcpServerIds: [], promptIds: [] },
        { pluginId: USER_GIT, appId: 'git', mcp: true, prompt: true, mcpServerIds: [], promptIds: [] },
      ],
    });
    expect(agent.serverIds).toEqual([userGitServer]);
    expect(agent.prompt.text).toContain(`${USER_GIT} 的提示`);
    expect(agent.prompt.text).not.toContain(STRANGER);
  });

  it('two plugins deriving the same name under one app: the later is refused with the field and the fix, the first is untouched', async () => {
    const { host } = await seed001World((pluginRoot) => {
      // "com.leeoohoo.gitapp" and "com.leeoohoo_gitapp" normalize alike: their prompt and tool names would be the same.
      writeOriginalStylePlugin(pluginRoot, 'zz-clash', 'com.leeoohoo_gitapp', 'git_app', 'git');
    });
    const clash = host.plugins.catalog.plugins.find((p) => p.id === 'com.leeoohoo_gitapp')!;
    expect(clash.status).toBe('invalid');
    expect(clash.problems.find((p) => p.code === 'SERVER_NAME_COLLISION')).toMatchObject({ path: 'apps[0].id', hint: 'rename the plugin id or the app id so the derived names differ' });
    expect(host.registry.listServers().map((s) => s.id)).not.toContain('git_app::com.leeoohoo_gitapp.git');
    expect(host.registry.getServer(userGitServer)?.source).toMatchObject({ kind: 'plugin', pluginId: USER_GIT });
  });

  it("a plugin deriving a name the app's own DB already uses is refused there with the field and the fix; the DB's row and its grant keep the id", async () => {
    const { host, home } = await startTestHost(
      async ({ home, pluginRoot }) => {
        await writeProviderDb(home, 'git_app', `${USER_GIT}.git`);
        writeOriginalStylePlugin(pluginRoot, 'git_app', USER_GIT, 'git_app', 'git');
      },
      { builtinPluginsDir: path.join(repoRoot, 'plugins') },
    );
    trustPlugin(host, USER_GIT);
    const row = host.registry.getServer(userGitServer)!;
    expect(row.source).toEqual({ kind: 'app-db', file: path.join(home, 'git_app', 'admin.db') });
    expect(row.url).toBe('cmd://git_app-own-mcp');
    host.registry.grantMcpServerAccess('wsl', userGitServer);
    // A rescan puts the plugin's rows again: the held id is still the DB's, with its grant.
    host.plugins.rescan();
    expect(host.registry.getServer(userGitServer)?.source.kind).toBe('app-db');
    expect(host.registry.listGrants('server', 'wsl').map((g) => g.targetId)).toEqual([userGitServer]);
    expect(host.registry.problems.find((p) => p.code === 'REGISTRY_ID_HELD')).toMatchObject({
      severity: 'error',
      file: path.join(host.plugins.catalog.apps.find((a) => a.pluginId === USER_GIT)!.pluginDir, 'plugin.json'),
      path: 'apps[0].id',
      hint: 'rename the app id (or the plugin id) so the derived names differ',
    });
    // An agent using the app's own server does not get the DB's server in its place.
    const agent = agentOf(host, { name: 'a', uiApps: [{ pluginId: USER_GIT, appId: 'git', mcp: true, prompt: false, mcpServerIds: [], promptIds: [] }] });
    expect(agent.serverIds).toEqual([]);
    expect(agent.problems.map((p) => p.code)).toContain('AGENT_ID_HELD');
  });
});
