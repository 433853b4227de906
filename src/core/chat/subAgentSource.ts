import type { Agent } from '../../shared/agents.js';
import type { ToolCallStatus } from '../../shared/chat.js';
import type { PermissionLevel } from '../../shared/mcp.js';
import { ownValue } from '../../shared/ownKeys.js';
import { GatewayError } from '../tools/refusals.js';
import { HOST_TOOL_OWNER, type Caller, type GatewayCallOptions, type OfferedTool, type SourceCall, type SourceListing, type SourceResult, type ToolSource } from '../tools/toolSource.js';
import { SUB_AGENT_PREFIX, subAgentToolName, subAgentTools, type SubAgentTool } from './subAgents.js';

/** A sub-agent's run as the chat loop reports it. */
export interface SubAgentRun {
  text: string;
  isError: boolean;
  status: ToolCallStatus;
}

export interface SubAgentRunInput {
  parentConversationId: string;
  callId: string;
  agentId: string;
  task: string;
  signal: AbortSignal;
  depth: number;
  started(childId: string): void;
}

export interface SubAgentSourceDeps {
  agents: { get(id: string): Agent | undefined; list(): Agent[] };
  /** How deep sub-agent runs may nest: at this depth none is offered or called. */
  maxDepth: number;
  /** Runs the sub-agent in a child conversation of the caller's; its final answer is the result. */
  run(input: SubAgentRunInput): Promise<SubAgentRun>;
}

/** Unless the calling agent's settings say otherwise, a sub-agent call runs without asking, and is audited like any call. */
const DEFAULT_LEVEL: PermissionLevel = 'write';

const NOTHING: SourceListing = Object.freeze({ tools: [], problems: [], reminders: [] });

/**
 * An agent's sub-agents as a tool source (docs/rules/chat.md#sub-agents):
 * an agent is offered one tool per id in its `subAgents`; a call runs that
 * agent in the sub flow, in a child conversation, and its final answer is
 * the result. Through the gateway like any tool: a caller whose agent does
 * not list the sub-agent is refused, the call has a permission level (the
 * calling agent's `subAgentPermissions`, else `write`), a `confirm` level
 * asks the user, and every call is audited with its outcome. A run belongs
 * to the conversation that asked for it, so sub-agents are offered inside a
 * chat turn only (a caller with a depth), not to a script or the playground.
 */
export class SubAgentSource implements ToolSource {
  readonly kind = 'sub-agent';
  readonly reservesNames = true;

  constructor(private readonly deps: SubAgentSourceDeps) {}

  private depthOf(caller: Caller): number {
    return caller.depth ?? 0;
  }

  /** The calling agent's sub-agent tools, none past the depth limit or outside a chat turn; problems for ids that name no agent or clash. */
  private toolsOf(caller: Caller): { agent?: Agent; tools: SubAgentTool[]; problems: SourceListing['problems'] } {
    const agent = caller.agentId === undefined ? undefined : this.deps.agents.get(caller.agentId);
    if (!agent || caller.depth === undefined) return { agent, tools: [], problems: [] };
    return { agent, ...subAgentTools(agent, (id) => this.deps.agents.get(id), new Set(), this.depthOf(caller) >= this.deps.maxDepth) };
  }

  private offered(agent: Agent, sub: SubAgentTool): OfferedTool {
    const own = ownValue(agent.subAgentPermissions, sub.agentId);
    return {
      name: sub.spec.name,
      rawName: sub.spec.name,
      ...HOST_TOOL_OWNER,
      description: sub.spec.description,
      inputSchema: sub.spec.inputSchema as OfferedTool['inputSchema'],
      permission: own ?? DEFAULT_LEVEL,
      permissionSource: own ? 'override' : 'default',
      source: 'sub-agent',
      settlesOnAbort: true,
    };
  }

  async list(caller: Caller): Promise<SourceListing> {
    const { agent, tools, problems } = this.toolsOf(caller);
    if (!agent || (!tools.length && !problems.length)) return NOTHING;
    return { tools: tools.map((sub) => this.offered(agent, sub)), problems, reminders: [] };
  }

  /**
   * A `subagent_<id>` name of an agent that exists is this source's: the
   * caller's agent may call it when it lists that agent among its
   * sub-agents and the run is not at the depth limit; any other caller is
   * refused, saying how to allow it.
   */
  resolve(caller: Caller, toolName: string) {
    if (!toolName.startsWith(SUB_AGENT_PREFIX)) return undefined;
    const { agent, tools } = this.toolsOf(caller);
    const sub = tools.find((tool) => tool.spec.name === toolName);
    if (agent && sub) return { tool: this.offered(agent, sub) };
    const target = this.deps.agents.list().find((other) => subAgentToolName(other.id) === toolName);
    if (!target) return undefined;
    if (!agent) {
      throw new GatewayError(
        'NOT_GRANTED',
        `${caller.appId} may not call sub-agent "${target.id}": only an agent that lists it among its sub-agents may`,
        `call it from an agent whose sub-agents include "${target.id}" (the agent's settings on the Agents page)`,
        HOST_TOOL_OWNER.serverId,
      );
    }
    if (agent.subAgents.includes(target.id) && caller.depth === undefined) {
      throw new GatewayError(
        'NOT_GRANTED',
        `sub-agent "${target.id}" runs only inside a chat turn of agent ${agent.id}, in a child of its conversation`,
        `ask agent ${agent.id} in a conversation (the Chat page, or chatos chat --agent ${agent.id})`,
        HOST_TOOL_OWNER.serverId,
      );
    }
    if (agent.subAgents.includes(target.id) && this.depthOf(caller) >= this.deps.maxDepth) {
      throw new GatewayError(
        'DEPTH_LIMIT',
        `sub-agent "${target.id}" is not offered at depth ${this.depthOf(caller)}: sub-agent runs nest at most ${this.deps.maxDepth} deep`,
        'finish this run with what it has, and let the agent above it delegate',
        HOST_TOOL_OWNER.serverId,
      );
    }
    throw new GatewayError(
      'NOT_GRANTED',
      `agent "${agent.id}" may not call sub-agent "${target.id}": it is not among its sub-agents`,
      `add "${target.id}" to the sub-agents of agent ${agent.id} (the Agents page, or chatos agents update ${agent.id} --file AGENT.json)`,
      HOST_TOOL_OWNER.serverId,
    );
  }

  async call({ caller, tool, args }: SourceCall, options: GatewayCallOptions | undefined): Promise<SourceResult> {
    const agentId = this.toolsOf(caller).tools.find((sub) => sub.spec.name === tool.name)?.agentId;
    // Changed since the call was resolved (the sub-agent removed from the agent's settings): refused like a call that came later.
    if (agentId === undefined)
      throw new GatewayError('NOT_GRANTED', `${tool.name} is no longer among the sub-agents of agent "${caller.agentId}"`, 'see its sub-agents on the Agents page', HOST_TOOL_OWNER.serverId);
    const task = args.task;
    if (typeof task !== 'string' || !task.trim()) return { result: { content: [{ type: 'text', text: `${tool.name} needs {"task": "<what to do>"}` }], isError: true } };
    const run = await this.deps.run({
      parentConversationId: caller.conversationId,
      callId: options?.callId ?? tool.name,
      agentId,
      task,
      signal: options?.signal ?? new AbortController().signal,
      depth: this.depthOf(caller) + 1,
      started: (childId) => options?.onConversation?.(childId),
    });
    return { result: { content: [{ type: 'text', text: run.text }], ...(run.isError ? { isError: true } : {}) }, ...(run.status === 'cancelled' ? { cancelled: true } : {}) };
  }

  names(caller: Caller): readonly string[] {
    return this.toolsOf(caller).tools.map((sub) => sub.spec.name);
  }
}
