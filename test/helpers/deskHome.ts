import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'vitest';
import { writePlugin } from './plugins.js';
import { runCli } from './runCli.js';

/** Temp folders a test file makes in its beforeAll, removed together in its afterAll. */
export function fileFolders() {
  const made: string[] = [];
  return {
    make(prefix: string): string {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll(): void {
      for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The built CLI on one data home; a failing step fails the test with its stderr. */
export function cliIn(home: string) {
  return async (args: string[], input?: string): Promise<void> => {
    const run = await runCli([...args, '--home', home], input === undefined ? {} : { input });
    expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
  };
}

export interface DeskHome {
  /** The data home (mcp.yaml written by the caller). */
  home: string;
  /** The plugins root the Desk plugin is in. */
  root: string;
  /** The mcp.yaml server(s) the Desk app exposes. */
  server: string | string[];
  /** The model entry `local`: the local provider server's OpenAI url and the key it is added with. */
  providerUrl: string;
  apiKey: string;
  vision?: boolean;
  /** The Desk page's code (default: a page that shows nothing). */
  page?: string;
  /** The agents to create (default: `helper`, using the server). Each gets `modelId: local` unless it says otherwise. */
  agents?: Record<string, unknown>[];
}

/**
 * What the chat's browser tests start from, set up through the built CLI as
 * a user would: a trusted plugin Desk (com.example.desk) whose app exposes
 * the server (an agent may only select a server some app exposes:
 * docs/rules/names-and-exposure.md#exposure), the model `local`, and the
 * agents using that app's server.
 */
export async function setUpDeskHome(desk: DeskHome): Promise<void> {
  const cli = cliIn(desk.home);
  writePlugin(
    desk.root,
    'desk',
    { manifestVersion: 1, id: 'com.example.desk', name: 'Desk', version: '1.0.0', apps: [{ id: 'desk', name: 'Desk', entry: 'index.mjs', ai: { mcpServers: [desk.server].flat() } }] },
    { 'index.mjs': desk.page ?? 'export function mount() {}\n' },
  );
  await cli(['roots', 'add', desk.root]);
  await cli(['trust', 'com.example.desk']);
  await cli(['models', 'add', 'local', '--api', 'openai', '--base-url', desk.providerUrl, '--model', 'test-model', '--api-key-stdin', ...(desk.vision ? ['--vision'] : [])], `${desk.apiKey}\n`);
  for (const agent of desk.agents ?? [{ id: 'helper', name: 'Helper' }]) {
    const file = path.join(desk.root, `${String(agent.id)}.json`);
    fs.writeFileSync(file, JSON.stringify({ modelId: 'local', ...deskAgentApps(desk.server), ...agent }));
    await cli(['agents', 'create', '--file', file]);
  }
}

/** An agent's use of the Desk app's server. */
export const deskAgentApps = (server: string | string[]) => ({
  uiApps: [{ pluginId: 'com.example.desk', appId: 'desk', mcp: true, mcpServerIds: [server].flat().map((name) => `chatos::${name}`) }],
});
