import type { KnowledgeBase } from '../../shared/knowledge.js';
import type { Problem } from '../../shared/problems.js';
import { GatewayError } from '../tools/refusals.js';
import { HOST_TOOL_OWNER, type Caller, type OfferedTool, type SourceCall, type SourceListing, type SourceResult, type ToolSource } from '../tools/toolSource.js';
import { KNOWLEDGE_TOOL_NAME, knowledgeToolFor, runKnowledgeSearch, type KnowledgeSearch } from './knowledgeChatTool.js';

/** What the tool reads to offer and run `knowledge_search`: the agent's attached bases (now), the bases that exist, the search. */
export interface KnowledgeAccess {
  /** The ids an agent has attached, read from its store at each listing and each call; none for an unknown agent. */
  attachedTo(agentId: string): readonly string[];
  list(): Promise<KnowledgeBase[]>;
  search: KnowledgeSearch;
}

const NOTHING: SourceListing = Object.freeze({ tools: [], problems: [], reminders: [] });

/**
 * `knowledge_search`, a tool of the host (like mcp_release): offered only to
 * an agent with knowledge bases attached, and only over those. For such an
 * agent the name is the host's: a server tool of the same name is left out
 * of its listing (with a warning) and never reached by it. The bases are
 * read again at every call, so detaching one takes effect at once.
 */
export class KnowledgeToolSource implements ToolSource {
  readonly kind = 'host';
  readonly reservesNames = true;

  constructor(private readonly access: KnowledgeAccess) {}

  /** Whether a call of `knowledge_search` by this caller is the host's tool. */
  private claims(caller: Caller): boolean {
    return caller.agentId !== undefined && this.access.attachedTo(caller.agentId).length > 0;
  }

  /** The tool as this caller's listing offers it (none without attached bases that exist), with a problem per missing base. */
  private async offer(caller: Caller): Promise<{ tool?: OfferedTool; problems: Problem[] }> {
    if (caller.agentId === undefined) return { problems: [] };
    const knowledgeBases = [...this.access.attachedTo(caller.agentId)];
    if (!knowledgeBases.length) return { problems: [] };
    const { tool, problems } = knowledgeToolFor({ id: caller.agentId, knowledgeBases }, await this.access.list());
    if (!tool) return { problems };
    const offered: OfferedTool = {
      name: KNOWLEDGE_TOOL_NAME,
      rawName: KNOWLEDGE_TOOL_NAME,
      ...HOST_TOOL_OWNER,
      description: tool.spec.description,
      inputSchema: tool.spec.inputSchema as OfferedTool['inputSchema'],
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      permission: 'read',
      permissionSource: 'default',
      source: 'host',
    };
    return { tool: offered, problems };
  }

  async list(caller: Caller): Promise<SourceListing> {
    const { tool, problems } = await this.offer(caller);
    return tool || problems.length ? { tools: tool ? [tool] : [], problems, reminders: [] } : NOTHING;
  }

  resolve(caller: Caller, toolName: string) {
    if (toolName !== KNOWLEDGE_TOOL_NAME || !this.claims(caller)) return undefined;
    return this.offer(caller).then(({ tool }) => {
      if (!tool)
        throw new GatewayError(
          'UNKNOWN_TOOL',
          `no knowledge base attached to agent "${caller.agentId}" exists now`,
          'create the base, or attach an existing one to the agent',
          HOST_TOOL_OWNER.serverId,
        );
      return { tool };
    });
  }

  /** One call, over the bases attached now that exist; a base not among them is refused in the result the model reads. */
  async call({ caller, args }: SourceCall, options: { signal?: AbortSignal } | undefined): Promise<SourceResult> {
    const attached = new Set(caller.agentId === undefined ? [] : this.access.attachedTo(caller.agentId));
    const bases = (await this.access.list()).filter((base) => attached.has(base.id)).map((base) => base.id);
    const found = await runKnowledgeSearch(this.access.search, bases, args, options?.signal);
    return { result: { content: [{ type: 'text', text: found.text }], ...(found.ok ? {} : { isError: true }) } };
  }

  names(caller: Caller): readonly string[] {
    return this.claims(caller) ? [KNOWLEDGE_TOOL_NAME] : [];
  }
}
