import type { Agent } from '../../shared/agents.js';
import { MAX_MEMORIES, MAX_MEMORY_CHARS, MAX_MEMORY_QUERY_CHARS, type AgentMemoryListing, type Memory } from '../../shared/memory.js';
import { MemoryError } from './memoryError.js';
import type { MemorySearch } from './memorySearch.js';
import { spaceName, type MemorySpace, type MemoryStore } from './memoryStore.js';

/** Whose memories an agent reads and writes: its host app's shared ones when it shares, else its own. */
export function memorySpaceOf(agent: Pick<Agent, 'id' | 'hostAppId' | 'memory'>): MemorySpace {
  return agent.memory?.shared ? { kind: 'app', id: agent.hostAppId } : { kind: 'agent', id: agent.id };
}

/** The user (the Memory tab, the CLI, the settings server) as a memory's author. */
export const BY_USER = 'user';

/**
 * An agent's memories as the faces use them, by agent id: the Memory tab,
 * the settings server's agents domain and `chatos agents memory`. They see
 * the agent's space whether its memory is on or off (a user may read and
 * tidy what it kept before it was switched off).
 */
export class AgentMemories {
  constructor(
    private readonly store: MemoryStore,
    private readonly agents: { get(id: string): Agent | undefined },
    private readonly finder: MemorySearch,
  ) {}

  private spaceOf(agentId: string): { agent: Agent; space: MemorySpace } {
    const agent = this.agents.get(agentId);
    if (!agent) throw new MemoryError('MEMORY_AGENT_NOT_FOUND', `no agent "${agentId}"`, 'list the agents: chatos agents list');
    return { agent, space: memorySpaceOf(agent) };
  }

  /** Its memories, newest first, or those `query` finds (by meaning with an embedding model set, else by words), best first. */
  async list(agentId: string, options: { query?: string; limit?: number } = {}): Promise<AgentMemoryListing> {
    const { agent, space } = this.spaceOf(agentId);
    const limit = Math.min(Math.max(options.limit ?? MAX_MEMORIES, 1), MAX_MEMORIES);
    const query = options.query?.trim() ?? '';
    if (query.length > MAX_MEMORY_QUERY_CHARS)
      throw new MemoryError('MEMORY_TOO_LARGE', `a search is at most ${MAX_MEMORY_QUERY_CHARS} characters; this one has ${query.length}`, 'search with a few words');
    const found = query ? await this.finder.search(space, query, limit) : undefined;
    const memories = found ? found.hits : this.store.list(space).slice(0, limit);
    return {
      ...(found ? { searchedBy: found.mode } : {}),
      ...(found?.note ? { note: found.note } : {}),
      agentId,
      enabled: agent.memory?.enabled === true,
      shared: agent.memory?.shared === true,
      space: spaceName(space),
      total: this.store.count(space),
      memories,
      maxChars: MAX_MEMORY_CHARS,
    };
  }

  async remember(agentId: string, text: string): Promise<Memory> {
    return (await this.store.remember(this.spaceOf(agentId).space, text, BY_USER)).memory;
  }

  async update(agentId: string, memoryId: string, text: string): Promise<Memory> {
    return this.store.update(this.spaceOf(agentId).space, memoryId, text, BY_USER);
  }

  async forget(agentId: string, memoryId: string): Promise<Memory> {
    return this.store.forget(this.spaceOf(agentId).space, memoryId);
  }
}
