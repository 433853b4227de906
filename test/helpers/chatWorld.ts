import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOST_UI_APP, type AgentInput } from '../../src/shared/agents.js';
import { ConversationMessageSchema } from '../../src/shared/chat.js';
import type { ApiKind, ModelEntryInput } from '../../src/shared/models.js';
import type { HostOptions } from '../../src/core/host.js';
import { startTestHost, writeMcpYaml, type TestHost } from './gatewayHost.js';
import { startProviderServer, type ProviderServer } from './providerServer.js';
import { repoRoot } from './tempDir.js';
import type { TestScheduler } from './testScheduler.js';

/** The chat fixture server (rendezvous, sleep, slow, echo, image, picture, danger). */
export const CHAT_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'chatServer.mjs');

/** An mcp.yaml stdio entry for the chat fixture, offered as `mcp_<name>_<tool>`. */
export const chatServerEntry = (extra: Record<string, unknown> = {}) => ({ transport: 'stdio', command: process.execPath, args: [CHAT_SERVER], ...extra });

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

/** The tool results a recorded request carried, in its order, whatever its wire format: `[callId, text]`. */
export function toolResultsIn(body: any): [string, string][] {
  const text = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: any) => p.text ?? '').join('') : '');
  if (Array.isArray(body.input)) return body.input.filter((i: any) => i.type === 'function_call_output').map((i: any) => [i.call_id, text(i.output)]);
  return body.messages.flatMap((m: any): [string, string][] => {
    if (m.role === 'tool') return [[m.tool_call_id, text(m.content)]];
    if (Array.isArray(m.content)) return m.content.filter((b: any) => b.type === 'tool_result').map((b: any) => [b.tool_use_id, text(b.content)]);
    return [];
  });
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
