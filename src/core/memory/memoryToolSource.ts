import type { Agent } from '../../shared/agents.js';
import { HOST_TOOL_OWNER, type Caller, type SourceCall, type SourceListing, type SourceResult, type ToolSource } from '../tools/toolSource.js';
import { memorySpaceOf } from './agentMemories.js';
import type { MemorySearch } from './memorySearch.js';
import type { MemoryStore } from './memoryStore.js';
import { isMemoryTool, MEMORY_TOOLS, runMemoryTool } from './memoryTools.js';

const NOTHING: SourceListing = Object.freeze({ tools: [], problems: [], reminders: [] });
const OFFERED: SourceListing = Object.freeze({ tools: [...MEMORY_TOOLS], problems: [], reminders: [] });
const NAMES = MEMORY_TOOLS.map((tool) => tool.name);

export interface MemoryToolDeps {
  /** The agent as stored now: its memory switch is read at every listing and every call. */
  agent(id: string): Agent | undefined;
  store: MemoryStore;
  /** The search recall runs (the Memory page's). */
  finder: MemorySearch;
}

/**
 * The memory tools (docs/rules/gateway.md#memory): offered only to an agent
 * with memory on, over its own space (or its host app's, when it shares),
 * and served by the host ahead of the confirmation step
 * (`interceptsFirst`): the agent's own notes, never a server's tool, no
 * process started, every call audited (reason `memory`). For such an agent
 * the names are the host's: a server tool of the same name is left out.
 */
export class MemoryToolSource implements ToolSource {
  readonly kind = 'host';
  readonly reservesNames = true;
  readonly interceptsFirst = true;

  constructor(private readonly deps: MemoryToolDeps) {}

  /** The calling agent, when its memory is on. */
  private agentWithMemory(caller: Caller): Agent | undefined {
    if (caller.agentId === undefined) return undefined;
    const agent = this.deps.agent(caller.agentId);
    return agent?.memory?.enabled ? agent : undefined;
  }

  async list(caller: Caller): Promise<SourceListing> {
    return this.agentWithMemory(caller) ? OFFERED : NOTHING;
  }

  resolve(caller: Caller, toolName: string) {
    if (!isMemoryTool(toolName) || !this.agentWithMemory(caller)) return undefined;
    return { tool: MEMORY_TOOLS.find((tool) => tool.name === toolName)! };
  }

  async call({ caller, tool, args }: SourceCall): Promise<SourceResult> {
    const audit = { serverId: HOST_TOOL_OWNER.serverId, reason: 'memory' };
    const agent = this.agentWithMemory(caller);
    // Switched off between the listing and the call: refused in the result, nothing read or written.
    if (!agent || !isMemoryTool(tool.name)) return { result: { content: [{ type: 'text', text: `Memory is switched off for this agent: ${tool.name} did nothing.` }], isError: true }, audit };
    const done = await runMemoryTool(this.deps, memorySpaceOf(agent), agent.id, tool.name, args);
    return { result: { content: [{ type: 'text', text: done.text }], ...(done.ok ? {} : { isError: true }) }, audit };
  }

  names(caller: Caller): readonly string[] {
    return this.agentWithMemory(caller) ? NAMES : [];
  }
}
