import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import { chatServerEntry } from './chatWorld.js';
import { writeMcpYaml } from './gatewayHost.js';
import { writePlugin } from './plugins.js';
import { startProviderServer } from './providerServer.js';
import { runCli } from './runCli.js';
import { tempDir } from './tempDir.js';

/** The key the model entry of cliWorld is added with (from stdin, as a user would). */
export const KEY = 'sk-cli-chat-Hq7Lm2Xv9Rt4';

/**
 * A data home set up through the built CLI as a user would: the chat fixture
 * server in mcp.yaml, a trusted plugin whose app exposes it, the model
 * `local` on a local provider server, and the agent `helper` using it.
 */
export async function cliWorld(options: { api?: 'openai' | 'openai-responses' | 'anthropic'; vision?: boolean } = {}) {
  const provider = await startProviderServer();
  const home = tempDir();
  writeMcpYaml(home, { chat: chatServerEntry() });
  // The agent selects chatos::chat under an app that exposes it (docs/rules/names-and-exposure.md#exposure): the host refuses a selection no app exposes.
  const root = tempDir();
  writePlugin(
    root,
    'desk',
    { manifestVersion: 1, id: 'com.example.desk', name: 'Desk', version: '1.0.0', apps: [{ id: 'desk', name: 'Desk', entry: 'index.mjs', ai: { mcpServers: ['chat'] } }] },
    { 'index.mjs': 'export function mount() {}\n' },
  );
  const cli = (args: string[], extra: { input?: string } = {}) => runCli([...args, '--home', home], extra);
  for (const step of [
    ['roots', 'add', root],
    ['trust', 'com.example.desk'],
  ]) {
    const run = await cli(step);
    expect(run.code, run.stderr).toBe(0);
  }
  const api = options.api ?? 'openai';
  const added = await cli(
    [
      'models',
      'add',
      'local',
      '--api',
      api,
      '--base-url',
      api === 'anthropic' ? provider.url : provider.openaiUrl,
      '--model',
      'test-model',
      '--api-key-stdin',
      ...(options.vision ? ['--vision'] : []),
    ],
    { input: `${KEY}\n` },
  );
  expect(added.code, added.stderr).toBe(0);
  const agentFile = path.join(tempDir(), 'agent.json');
  fs.writeFileSync(
    agentFile,
    JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', systemPrompt: 'Be brief.', uiApps: [{ pluginId: 'com.example.desk', appId: 'desk', mcp: true, mcpServerIds: ['chatos::chat'] }] }),
  );
  const created = await cli(['agents', 'create', '--file', agentFile]);
  expect(created.code, created.stderr).toBe(0);
  return { provider, home, cli };
}
