import type { Agent } from '../../shared/agents.js';
import type { StopInfo } from '../../shared/chat.js';
import { modelKind, type ModelEntry } from '../../shared/models.js';
import type { Problem } from '../../shared/problems.js';
import type { ResolvedAgent } from '../agents/agentResolver.js';
import { modelSees } from '../mcp/catalog/toolUi.js';
import { leaseReminder } from '../tools/releaseTool.js';
import type { Caller, ToolGateway } from '../tools/toolGateway.js';
import { ModelError } from '../models/modelError.js';
import type { ModelClient } from '../models/providers/modelClient.js';
import type { ToolSpec } from '../models/providers/modelRequest.js';
import { projectTools } from '../models/providers/projectTools.js';
import { KNOWLEDGE_NOTE, KNOWLEDGE_TOOL_NAME } from '../knowledge/knowledgeChatTool.js';
import { MEMORY_NOTE } from '../memory/memoryTools.js';
import { instructionsPrompt, serversOf, type ServerInstructions } from '../mcp/instructions/serverInstructions.js';

export interface SetupDeps {
  agents: { get(id: string): Agent | undefined };
  models: { get(id: string): ModelEntry | undefined; keyFor(entry: ModelEntry): Promise<string | undefined> };
  clientFor(entry: ModelEntry, key: string | undefined): ModelClient;
  resolve(agent: Agent): ResolvedAgent;
  gateway: Pick<ToolGateway, 'listTools'>;
  /** The stateful servers whose own instance this conversation holds now (its leases). */
  heldLeases(conversationId: string): string[];
  /** The instructions these servers gave at initialize, those the model may be given (never an untrusted plugin's). */
  serverInstructions?(serverIds: readonly string[]): ServerInstructions[];
}

/** Everything a turn needs that does not change between its rounds. */
export interface TurnSetup {
  agent: Agent;
  entry: ModelEntry;
  client: ModelClient;
  /** The agent's caller in this conversation: main flow at the top, sub flow in a sub-agent's run. */
  caller: Caller;
  /** The agent's own prompt, then its resolved prompts (in its language). */
  system: string;
  /** As projected for the model's API: every tool the gateway offers (mcp_release and one per sub-agent among them). */
  tools: ToolSpec[];
  /** Tools whose call settles only once its work stopped (a sub-agent's run): a Stop waits for them rather than leaving them. */
  settlesOnAbort: ReadonlySet<string>;
  /** Tools marked for their MCP App alone (docs/rules/mcp-apps.md#tools-with-a-view): not offered, and refused if the model names one. */
  appOnly: ReadonlySet<string>;
  /** The MCP App view each offered tool links to, by name: its result is shown in that view. */
  views: ReadonlyMap<string, string>;
  problems: Problem[];
}

const stop = (code: string, message: string, hint: string, modelId?: string): { stop: StopInfo } => ({ stop: { kind: 'error', code, message, hint, ...(modelId ? { modelId } : {}) } });

/** Who answers in which conversation: its agent, and the model it was switched to (else the agent's). */
interface TurnWho {
  agentId: string;
  conversationId: string;
  modelId?: string;
}

/**
 * Works out who answers and with what, before any request: the agent, its
 * model (the conversation's, when it was switched) and key, its tools in
 * the flow of this run. What cannot work (no agent, no model, an embedding
 * model, no key, more tools than the model takes) is a stop with the fix,
 * not a failed request.
 */
export async function setUpTurn(deps: SetupDeps, who: TurnWho, depth: number): Promise<TurnSetup | { stop: StopInfo }> {
  const { agentId, conversationId } = who;
  const agent = deps.agents.get(agentId);
  if (!agent) return stop('AGENT_NOT_FOUND', `no agent "${agentId}": it was deleted`, 'start a new conversation with another agent');
  const modelId = who.modelId ?? agent.modelId;
  if (!modelId)
    return stop('AGENT_NO_MODEL', `agent "${agent.id}" has no model to chat with`, `choose one in the agent's settings (Agents page), after adding one: chatos models add ID --preset openai`);
  const entry = deps.models.get(modelId);
  if (!entry) {
    return who.modelId
      ? stop(
          'MODEL_NOT_FOUND',
          `this conversation was switched to model "${modelId}", which no longer exists`,
          'switch the conversation to another model (the model menu above the messages, or chatos chat --model ID)',
          modelId,
        )
      : stop('MODEL_NOT_FOUND', `agent "${agent.id}" names model "${modelId}", which does not exist`, 'add it (chatos models add), or choose another model for the agent', modelId);
  }
  if (modelKind(entry) !== 'chat')
    return stop(
      'MODEL_NOT_CHAT',
      `model "${entry.id}" is an embedding model; it cannot answer in a chat`,
      'choose a chat model for the agent or the conversation (an embedding model serves knowledge bases)',
      entry.id,
    );
  let key: string | undefined;
  try {
    key = await deps.models.keyFor(entry);
  } catch (error) {
    if (error instanceof ModelError) return stop(error.code, error.message, error.hint ?? 'give the model its key on the Models page', entry.id);
    throw error;
  }
  const resolved = deps.resolve(agent);
  const caller: Caller = { ...resolved.callerFor(depth === 0 ? 'main' : 'sub', conversationId), depth };
  // Every tool comes from the gateway: the servers', the host's own (mcp_release, knowledge_search) and the sub-agents.
  const all = await deps.gateway.listTools(caller);
  const { listed, projected, offered } = toolsOffered(entry, all);
  const searchesKnowledge = listed.tools.some((t) => t.name === KNOWLEDGE_TOOL_NAME && t.source === 'host');
  const remembers = listed.tools.some((t) => t.name === 'memory_recall' && t.source === 'host');
  if (entry.maxTools !== undefined && projected.tools.length > entry.maxTools) {
    return stop(
      'TOO_MANY_TOOLS',
      `agent "${agent.id}" would send ${projected.tools.length} tools to model "${entry.id}", which takes at most ${entry.maxTools}`,
      `select fewer servers for the agent, switch tools off on the MCP servers page, or raise maxTools of model "${entry.id}" if its provider allows more`,
      entry.id,
    );
  }
  // The lease reminder is sticky (docs/rules/mcp-yaml.md#leases): every turn says which instances the conversation holds, until it releases them.
  // Each server whose tools the agent has may say how to use them (docs/rules/chat.md#server-instructions).
  const instructions = instructionsPrompt(deps.serverInstructions?.(serversOf(listed.tools)) ?? []);
  const held = deps.heldLeases(conversationId);
  const reminders = held.length ? `Notes from the host:\n${held.map((serverId) => `- ${leaseReminder(serverId)}`).join('\n')}` : '';
  return {
    agent,
    entry,
    client: deps.clientFor(entry, key),
    caller,
    system: [agent.systemPrompt.trim(), resolved.prompt.text, instructions, searchesKnowledge ? KNOWLEDGE_NOTE : '', remembers ? MEMORY_NOTE : '', reminders].filter(Boolean).join('\n\n'),
    ...offered,
    problems: distinct([
      ...resolved.problems,
      ...listed.problems,
      ...projected.problems.map((p) => ({ severity: 'warning' as const, code: p.code, file: entry.id, path: p.toolName, message: p.message })),
    ]),
  };
}

type Listed = Awaited<ReturnType<ToolGateway['listTools']>>;

/** What the gateway lists, as the model is offered it: the tools it sees, projected for its API, and what the turn keeps of each. */
function toolsOffered(entry: ModelEntry, all: Listed) {
  const listed = { ...all, tools: all.tools.filter(modelSees) };
  const gatewayTools: ToolSpec[] = listed.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown> }));
  const projected = projectTools(entry.api, gatewayTools);
  const offered: Pick<TurnSetup, 'tools' | 'settlesOnAbort' | 'appOnly' | 'views'> = {
    tools: projected.tools,
    settlesOnAbort: new Set(listed.tools.filter((t) => t.settlesOnAbort).map((t) => t.name)),
    appOnly: new Set(all.tools.filter((t) => !modelSees(t)).map((t) => t.name)),
    views: new Map(listed.tools.flatMap((t) => (t.ui?.resourceUri ? [[t.name, t.ui.resourceUri] as const] : []))),
  };
  return { listed, projected, offered };
}

/**
 * The setup with the tools the gateway offers now, for the turn's next round (docs/rules/mcp-yaml.md#tool-list-changes):
 * a tool a server added during the turn (after its notifications/tools/list_changed) is offered, one it removed is not.
 * The same setup when nothing changed, or when the new list is more than the model takes (the turn goes on with what it had).
 */
export async function withToolsNow(deps: Pick<SetupDeps, 'gateway'>, setup: TurnSetup): Promise<TurnSetup> {
  const { offered } = toolsOffered(setup.entry, await deps.gateway.listTools(setup.caller));
  if (setup.entry.maxTools !== undefined && offered.tools.length > setup.entry.maxTools) return setup;
  if (JSON.stringify(offered.tools) === JSON.stringify(setup.tools)) return setup;
  return { ...setup, ...offered };
}

/** The resolver and the sub-agent tools both report a missing sub-agent: once is enough. */
function distinct(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.code}\u0000${p.file}\u0000${p.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
