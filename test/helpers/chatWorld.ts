import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOST_UI_APP, type AgentInput } from '../../src/shared/agents.js';
import { ConversationMessageSchema } from '../../src/shared/chat.js';
import type { ApiKind, ModelEntryInput } from '../../src/shared/models.js';
import type { HostOptions } from '../../src/core/host.js';
import { startTestHost, writeMcpYaml, type TestHost } from './gatewayHost.js';
import { chatServerEntry } from './mcpYaml.js';
import { startProviderServer, type ProviderServer } from './providerServer.js';
import type { TestScheduler } from './testScheduler.js';

// Re-exported for the host tests that import them from here; browser tests import the light modules themselves.
export { CHAT_SERVER, chatServerEntry } from './mcpYaml.js';
export { toolResultsIn } from './providerServer.js';

/** A model entry on the local provider server, for the API it speaks. */
export function localModel(provider: ProviderServer, api: ApiKind = 'openai', extra: Partial<ModelEntryInput> = {}): ModelEntryInput {
  return { id: 'local', name: 'Local', api, baseUrl: api === 'anthropic' ? provider.url : provider.openaiUrl, model: 'test-model', ...extra };
}

/** An agent using the mcp.yaml servers named (under ChatOS's own entry: they are the user's own), with the model `local`. */
export function agentUsing(servers: string[], extra: Partial<AgentInput> = {}): AgentInput {
  return {
    id: 'helper',
    name: 'Helper',
    description: 'Helps',
    modelId: 'local',
    systemPrompt: 'You are a test agent.',
    uiApps: servers.length ? [{ ...HOST_UI_APP, mcp: true, mcpServerIds: servers.map((s) => `chatos::${s}`) }] : [],
    ...extra,
  };
}

export interface ChatWorld extends TestHost {
  provider: ProviderServer;
}

/** A started host with mcp.yaml `servers`, the model `local` on a local provider server, and `agents`. */
export async function startChatWorld(
  options: { servers?: Record<string, unknown>; api?: ApiKind; model?: Partial<ModelEntryInput>; agents?: AgentInput[]; host?: Partial<HostOptions> } = {},
): Promise<ChatWorld> {
  const provider = await startProviderServer();
  const world = await startTestHost(({ home }) => writeMcpYaml(home, options.servers ?? { chat: chatServerEntry() }), options.host);
  await world.host.models.create(localModel(provider, options.api, options.model));
  for (const agent of options.agents ?? [agentUsing(Object.keys(options.servers ?? { chat: {} }))]) world.host.agents.create(agent);
  return { ...world, provider };
}

/**
 * Moves the scheduler's time on by each retry's wait as it is announced, so
 * retries happen without real waiting; returns the waits, in order.
 */
export function advanceOnRetry(host: TestHost['host'], scheduler: TestScheduler): number[] {
  const delays: number[] = [];
  host.chat.onEvent((event) => {
    if (event.type !== 'status' || !event.status.retry) return;
    const { delayMs } = event.status.retry;
    delays.push(delayMs);
    queueMicrotask(() => scheduler.advance(delayMs));
  });
  return delays;
}

/** Every line of the conversation's file is a valid message; how many there are. */
export function fileIsWhole(home: string, conversationId: string): number {
  const lines = fs
    .readFileSync(path.join(home, 'chatos', 'conversations', conversationId, 'messages.jsonl'), 'utf8')
    .trim()
    .split('\n');
  for (const line of lines) ConversationMessageSchema.parse(JSON.parse(line));
  return lines.length;
}
