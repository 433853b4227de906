import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../../../src/core/host.js';
import { createSettingsContext } from '../../../src/core/settingsServer/settingsContext.js';
import { createSettingsServer } from '../../../src/core/settingsServer/settingsServer.js';
import type { SettingsContext, ToolModule } from '../../../src/core/settingsServer/types.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import { serveInProcess } from '../../../src/core/mcp/connection/inProcessServe.js';
import { afterEachTest } from '../../helpers/afterEachTest.js';

const clients: Client[] = [];

afterEachTest(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** The settings context a started host would give the server: its real agents, registry, catalog, runtime and settings. */
export function hostSettingsContext(host: Host): SettingsContext {
  const internals = internalsOf(host);
  return createSettingsContext({
    agents: internals.agents.agents,
    registry: internals.registry.center,
    catalog: host.plugins.catalog,
    rescan: () => host.plugins.rescanAndReload(),
    runtime: internals.mcp.runtime,
    snapshots: () => host.mcp.servers.snapshots(),
    serverSettings: internals.mcp.settings,
    alwaysAllow: internals.agents.alwaysAllow,
    knowledge: internals.knowledge.service,
    memories: internals.agents.memories,
  });
}

export interface SettingsClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** The SDK's own client, connected to a fresh settings server over the in-memory transport, as the runtime connects it. */
export async function connectSettings(ctx: SettingsContext, modules?: ToolModule[]): Promise<SettingsClient> {
  const client = new Client({ name: 'settings-test', version: '0.0.0' });
  await client.connect(serveInProcess(() => createSettingsServer(ctx, modules)) as unknown as Transport);
  clients.push(client);
  return { client, call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult };
}

/** The data a settings tool returned (its structuredContent). */
export function dataOf<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`the tool failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

export function errorText(result: CallToolResult): string {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result.content)}`);
  const first = result.content[0];
  return first?.type === 'text' ? first.text : JSON.stringify(result.content);
}
