import type { Agent } from '../../shared/agents.js';
import type { ResolvedAgent } from '../agents/agentResolver.js';
import type { AgentStore } from '../agents/agentStore.js';
import type { AlwaysAllowStore } from '../confirmation/alwaysAllowStore.js';
import type { AgentMemories } from '../memory/agentMemories.js';
import type { ServerInstructions } from '../mcp/instructions/serverInstructions.js';
import type { ToolGateway } from '../tools/toolGateway.js';

export type { ResolvedAgent } from '../agents/agentResolver.js';

type Listing = Awaited<ReturnType<ToolGateway['listTools']>>;

/** Agents (docs/rules/agents.md) in the host's admin DB, and how the host resolves one now. */
export interface AgentsFacade extends Pick<AgentStore, 'list' | 'get' | 'create' | 'update' | 'delete'> {
  /** The agent's prompt, the servers it is offered, its problems, and its caller per flow. */
  resolve(agent: Agent): ResolvedAgent;
  /**
   * What the agent (saved or a draft) would be offered in each flow, and the
   * instructions its servers give the model (docs/rules/chat.md#server-instructions). A server
   * started to list its tools belongs to this preview alone and ends with it.
   */
  preview(agent: Agent): Promise<{ resolved: ResolvedAgent; main: Listing; sub: Listing; instructions: ServerInstructions[] }>;
  /**
   * Creates the ready assistant for a model entry (docs/using/agents.md#a-ready-assistant):
   * the built-in apps, the safe built-in tools (switched on if they were off) and the user's own servers, in the user's language.
   */
  createReady(options: { modelId: string; language: 'zh' | 'en' }): Promise<Agent>;
  /**
   * Adds a ready built-in tool (time, fetch, calculator) to one
   * agent in one step: switches it on if it is off, and picks it for that
   * agent only (docs/using/agents.md#ready-built-in-tools). `settings`, the
   * settings assistant, is added the same way: picked for that agent only.
   */
  addBuiltin(agentId: string, name: string): Promise<Agent>;
  /**
   * Trusts an ACP agent's program as it is now (docs/using/acp.md#trust): the
   * host starts it only while its command, arguments and environment are
   * what was trusted. `create` and `update` trust a program they are given.
   * `warnings`: the variables of its environment that decide which code runs.
   */
  trustProgram(id: string): { agent: Agent; warnings: { name: string; why: string }[] };
  /** "Always allow" answers per agent and tool, listed and revoked on the agent's settings. */
  readonly alwaysAllow: Pick<AlwaysAllowStore, 'list' | 'revoke'>;
  /** Each agent's memories (docs/using/agents.md#memory), by agent id: listed, searched, added, edited, forgotten. */
  readonly memory: Pick<AgentMemories, 'list' | 'remember' | 'update' | 'forget'>;
}
