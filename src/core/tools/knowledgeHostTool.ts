import type { KnowledgeBase } from '../../shared/knowledge.js';
import type { ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import { KNOWLEDGE_TOOL_NAME, knowledgeToolFor, runKnowledgeSearch, type KnowledgeSearch } from '../knowledge/knowledgeChatTool.js';
import type { CatalogTool } from '../mcp/catalog/toolCatalog.js';
import type { PermissionSource } from './permissions.js';

/** The gateway's OfferedTool, spelt out here: the gateway imports this module. */
type HostOffered = CatalogTool & { permission: 'read'; permissionSource: PermissionSource };
/** What this tool reads of a caller. */
type Caller = { agentId?: string };

/** What the gateway reads to offer and run `knowledge_search`: the agent's attached bases (now), the bases that exist, the search. */
export interface KnowledgeAccess {
  /** The ids an agent has attached, read from its store at each listing and each call; none for an unknown agent. */
  attachedTo(agentId: string): readonly string[];
  list(): Promise<KnowledgeBase[]>;
  search: KnowledgeSearch;
}

/** The host itself as the server a host tool belongs to: what the audit and the hooks read of a call's server. */
export const HOST_SERVER: ServerDefinition = Object.freeze<ServerDefinition>({
  id: 'chatos',
  name: 'chatos',
  providerAppId: 'chatos',
  origin: 'host',
  category: 'builtin',
  transport: { kind: 'in-process', server: 'chatos' },
  trulyStateless: true,
  tools: { whitelist: [], blacklist: [] },
  transform: [],
  allowMain: true,
  allowSub: true,
  timeoutMs: 60_000,
  permissions: [],
  disabledTools: [],
  disabled: false,
  meta: {},
});

/**
 * `knowledge_search`, a tool of the host the gateway offers (like
 * mcp_release): only to an agent with knowledge bases attached, and only
 * over those. The name is the host's for such an agent: a server tool of
 * the same name is left out of its listing (with a warning) and never
 * reached by it. The bases are read again at every call, so detaching one
 * takes effect at once.
 */
export class KnowledgeHostTool {
  constructor(private readonly access: KnowledgeAccess) {}

  /** Whether a call of `knowledge_search` by this caller is the host's tool. */
  claims(caller: Caller): boolean {
    return caller.agentId !== undefined && this.access.attachedTo(caller.agentId).length > 0;
  }

  /** The tool as this caller's listing offers it (none without attached bases that exist), with a problem per missing base. */
  async offer(caller: Caller): Promise<{ tool?: HostOffered; problems: Problem[] }> {
    if (caller.agentId === undefined) return { problems: [] };
    const knowledgeBases = [...this.access.attachedTo(caller.agentId)];
    if (!knowledgeBases.length) return { problems: [] };
    const { tool, problems } = knowledgeToolFor({ id: caller.agentId, knowledgeBases }, await this.access.list());
    if (!tool) return { problems };
    const offered: HostOffered = {
      name: KNOWLEDGE_TOOL_NAME,
      rawName: KNOWLEDGE_TOOL_NAME,
      serverId: HOST_SERVER.id,
      serverName: HOST_SERVER.name,
      description: tool.spec.description,
      inputSchema: tool.spec.inputSchema as CatalogTool['inputSchema'],
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      permission: 'read',
      permissionSource: 'default',
    };
    return { tool: offered, problems };
  }

  /** One call, over the bases attached now that exist; a base not among them is refused in the result the model reads. */
  async run(caller: Caller, args: Record<string, unknown>, signal?: AbortSignal): Promise<{ ok: boolean; text: string }> {
    const attached = new Set(caller.agentId === undefined ? [] : this.access.attachedTo(caller.agentId));
    const bases = (await this.access.list()).filter((base) => attached.has(base.id)).map((base) => base.id);
    return runKnowledgeSearch(this.access.search, bases, args, signal);
  }
}
