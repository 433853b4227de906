import type { Agent } from '../../shared/agents.js';
import type { OfferedTool } from '../tools/toolSource.js';
import { isMemoryTool, MEMORY_TOOLS } from './memoryTools.js';

/**
 * A preview's listing with the memory tools as the draft's switch says: the
 * gateway offers them by the agent as stored (a draft in the editor is not
 * stored yet, and is previewed under a stand-in id), so the preview puts
 * them in or leaves them out by the draft's own `memory.enabled`.
 */
export function withDraftMemory<L extends { tools: OfferedTool[] }>(listing: L, draft: Pick<Agent, 'memory'>): L {
  const others = listing.tools.filter((tool) => !(tool.source === 'host' && isMemoryTool(tool.name)));
  return { ...listing, tools: draft.memory?.enabled ? [...others, ...MEMORY_TOOLS] : others };
}
