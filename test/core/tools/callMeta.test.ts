import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caller, fixtureServer, startTestHost, textOf, trustPlugin, writeGatewayPlugin, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { tempDir } from '../../helpers/tempDir.js';

/** docs/rules/gateway.md#_meta: `_meta` of every tools/call, as the server's handler sees it (`extra._meta`). */
/**
 * The _meta a call carried, but its progress token: every call asks for progress
 * (a report resets its timeout, docs/rules/mcp-yaml.md), so the SDK adds one to each.
 */
function injected(result: Parameters<typeof textOf>[0]): Record<string, unknown> {
  const { progressToken, ...meta } = JSON.parse(textOf(result)) as Record<string, unknown>;
  expect(typeof progressToken).toBe('number');
  return meta;
}

describe('gateway _meta injection (real stdio servers)', () => {
  it('a plugin server gets its expanded callMeta, chatos.uiApp and workdir (dataDir by default, callMeta.workdir when given)', async () => {
    const pluginId = 'com.example.gw';
    let pluginDir = '';
    const { host, home, sessionRoot, projectRoot } = await startTestHost(({ pluginRoot }) => {
      pluginDir = writeGatewayPlugin(pluginRoot, pluginId, [
        { appId: 'main', allowMain: true, callMeta: { logDir: '$dataDir/logs', tag: 'for-${pluginId}', nested: { list: ['$appId', 'plain'] } } },
        // A callMeta.chatos of its own is refused at validate (CALLMETA_CHATOS_RESERVED, test/core/plugins/validatePlugin.test.ts).
        { appId: 'wd', allowMain: true, callMeta: { workdir: '$stateDir/work' } },
      ]);
    });
    trustPlugin(host, pluginId);
    const realPluginDir = fs.realpathSync(pluginDir);
    const dataDir = path.join(home, 'chatos', 'ui_apps', 'data', pluginId);
    const stateDir = path.join(home, 'chatos', 'ui_apps', 'state', pluginId);
    const uiApp = (appId: string) => ({ pluginId, appId, pluginDir: realPluginDir, dataDir, stateDir, sessionRoot, projectRoot });

    const who = caller('conv-meta', { agentId: 'agent-7' });
    const main = await host.tools.call(who, 'mcp_com_example_gw_main_echo_meta', {});
    expect(injected(main.result)).toEqual({
      logDir: `${dataDir}/logs`,
      tag: `for-${pluginId}`,
      nested: { list: ['main', 'plain'] },
      // `chatos` is the host's, filled in for every call.
      chatos: { uiApp: uiApp('main') },
      workdir: dataDir,
    });

    const wd = await host.tools.call(who, 'mcp_com_example_gw_wd_echo_meta', {});
    expect(injected(wd.result)).toEqual({
      chatos: { uiApp: uiApp('wd') },
      workdir: `${stateDir}/work`,
    });
  });

  it('an mcp.yaml server gets workdir = sessionRoot only: no uiApp, and nothing about the caller (agent, conversation)', async () => {
    const { host, sessionRoot } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const { result } = await host.tools.call(caller('conv-yaml', { flow: 'sub', agentId: 'agent-9' }), 'mcp_echo_echo_meta', { note: 'x' });
    expect(injected(result)).toEqual({ workdir: sessionRoot });
  });

  it('a progress token the SDK adds rides along with the injected _meta', async () => {
    const { host, sessionRoot } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const { result } = await host.tools.call(caller('conv-p'), 'mcp_echo_echo_meta', {}, { onProgress: () => {} });
    const meta = JSON.parse(textOf(result));
    expect(meta.workdir).toBe(sessionRoot);
    expect(meta.progressToken).toBeDefined();
  });

  it('a built-in plugin server is also told who calls (chatos.caller: an agent, a page, an app); a user plugin server never is', async () => {
    const builtinDir = tempDir('chatos-gw-builtin-');
    writeGatewayPlugin(builtinDir, 'com.example.builtin', [{ appId: 'main', allowMain: true }]);
    const { host } = await startTestHost(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, 'com.example.user', [{ appId: 'main', allowMain: true }]), { builtinPluginsDir: builtinDir });
    trustPlugin(host, 'com.example.user');
    const told = async (who: ReturnType<typeof caller>, tool: string) => JSON.parse(textOf((await host.tools.call(who, tool, {})).result)).chatos.caller;

    expect(await told(caller('conv-a', { agentId: 'agent-7' }), 'mcp_com_example_builtin_main_echo_meta')).toEqual({
      kind: 'agent',
      appId: 'chatos',
      agentId: 'agent-7',
      conversationId: 'conv-a',
      flow: 'main',
    });
    expect(await told(caller('ui-1', { appId: 'com.example.builtin', fromPage: true }), 'mcp_com_example_builtin_main_echo_meta')).toEqual({
      kind: 'page',
      appId: 'com.example.builtin',
      conversationId: 'ui-1',
      flow: 'main',
    });
    expect(await told(caller('cli-1', { flow: 'sub' }), 'mcp_com_example_builtin_main_echo_meta')).toEqual({ kind: 'app', appId: 'chatos', conversationId: 'cli-1', flow: 'sub' });
    expect(await told(caller('conv-a', { agentId: 'agent-7' }), 'mcp_com_example_user_main_echo_meta')).toBeUndefined();
  });
});
