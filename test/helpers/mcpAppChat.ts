import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium, serveApi, startServe, type ServeProcess } from './browser.js';
import { writeMcpYaml } from './mcpYaml.js';
import { writePlugin } from './plugins.js';
import { startProviderServer, type ProviderServer } from './providerServer.js';
import { runCli } from './runCli.js';

/** A `chatos serve` with MCP App servers, a scripted model, an agent that may use them, and Chromium on it. */
export interface McpAppChat {
  provider: ProviderServer;
  serve: ServeProcess;
  page: Page;
  home: string;
  api<T = any>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/**
 * `servers` (mcp.yaml entries by name) exposed by one trusted plugin app
 * (docs/rules/names-and-exposure.md#exposure), which agent `agentId`
 * selects, answering with the model `local` of a real provider server; a
 * light Chromium page at `viewport` on the served UI.
 */
export async function startMcpAppChat(options: { servers: Record<string, unknown>; agentId: string; viewport: { width: number; height: number } }): Promise<McpAppChat> {
  const provider = await startProviderServer({ shared: true });
  const home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-mcp-app-chat-'));
  writeMcpYaml(home, options.servers);
  const names = Object.keys(options.servers);
  const root = path.join(home, 'plugins');
  writePlugin(
    root,
    'apps',
    { manifestVersion: 1, id: 'com.example.apps', name: 'Apps', version: '1.0.0', apps: [{ id: 'apps', name: 'Apps', entry: 'index.mjs', ai: { mcpServers: names } }] },
    { 'index.mjs': 'export function mount() {}' },
  );
  for (const args of [
    ['roots', 'add', root],
    ['trust', 'com.example.apps'],
  ]) {
    const run = await runCli([...args, '--home', home]);
    expect(run.code, run.stderr).toBe(0);
  }
  const serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  const chromium = await launchChromium();
  const page = await chromium.context.newPage();
  await page.setViewportSize(options.viewport);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  const api = serveApi(serve);
  await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: provider.openaiUrl, model: 'test-model' }, apiKey: 'sk-mcp-app-chat' });
  await api('agents.save', {
    agent: {
      id: options.agentId,
      name: options.agentId,
      modelId: 'local',
      language: 'en',
      uiApps: [{ pluginId: 'com.example.apps', appId: 'apps', mcp: true, mcpServerIds: names.map((name) => `chatos::${name}`) }],
    },
  });
  return {
    provider,
    serve,
    page,
    home,
    api,
    async close() {
      await chromium.close();
      expect(await serve.stop()).toBe(0);
      await provider.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
