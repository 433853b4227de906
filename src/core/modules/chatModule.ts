import { AcpAgents, type StoredSession } from '../acp/acpAgents.js';
import type { AcpTrust } from '../acp/acpTrust.js';
import { GatewayEndpoint } from '../acp/gatewayEndpoint.js';
import { resolveAgent, type AgentResolverDeps } from '../agents/agentResolver.js';
import type { AgentStore } from '../agents/agentStore.js';
import { chatPolicy } from '../chat/chatPolicy.js';
import { ChatService } from '../chat/chatService.js';
import { PageChat } from '../chat/pageChat.js';
import { SubAgentSource } from '../chat/subAgentSource.js';
import type { ChatFacade } from '../facades/chat.js';
import type { ModelService } from '../models/modelService.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { HostBase } from './hostBase.js';
import type { McpModule } from './mcpModule.js';
import { narrow } from './narrow.js';
import type { ToolsModule } from './toolsModule.js';

export interface ChatModule {
  readonly service: ChatService;
  readonly facade: ChatFacade;
}

/** Conversations and their turns (the agent loop), and the chat of a UI app's page. */
export function chatModule(
  base: HostBase,
  store: RecordsStore,
  deps: { agents: AgentStore; acpTrust: Pick<AcpTrust, 'check'>; models: ModelService; resolver: AgentResolverDeps; tools: ToolsModule; mcp: McpModule },
): ChatModule {
  const { tools, mcp } = deps;
  const policy = chatPolicy(base.options.chat);
  const acp = new AcpAgents({
    endpoint: new GatewayEndpoint(tools.gateway),
    trust: deps.acpTrust,
    sessions: { saved: (id): StoredSession | undefined => service.row(id)?.acpSession, save: (id, session): void => service.saveAcpSession(id, session) },
    confirmations: tools.confirmations,
    roots: (id) => mcp.roots.paths(id),
    hostEnv: base.env,
    pids: base.pids,
    audit: (draft) => base.audit.append(draft),
    scheduler: base.scheduler,
    logger: base.logger,
    maxAnswerChars: policy.maxAnswerChars,
  });
  const service = new ChatService({
    acp,
    records: store,
    conversationsDir: base.home.conversationsDir,
    agents: deps.agents,
    models: deps.models,
    clientFor: (entry, key) => deps.models.clientFor(entry, key),
    resolve: (agent) => resolveAgent(agent, deps.resolver),
    gateway: tools.gateway,
    confirmations: tools.confirmations,
    // As every face ends one: audited, and no longer tied to a page.
    releaseLeases: (id) => tools.ending.end(id),
    heldLeases: (id) =>
      mcp.runtime.connections
        .snapshot()
        .filter((s) => s.leases.some((l) => l.conversationId === id))
        .map((s) => s.serverId),
    serverInstructions: (serverIds) => mcp.instructions(serverIds),
    scheduler: base.scheduler,
    now: () => base.clock.now(),
    policy,
    logger: base.logger,
  });
  // The roots of a stored conversation's instances are its own, else its agent's: kept on its row.
  mcp.roots.useConversations({ row: (id) => service.row(id), save: (id, roots) => void service.saveRoots(id, roots) });
  // Sub-agents are a tool source like any other: a call of one goes through the gateway (access, level, confirmation, audit).
  tools.gateway.register(new SubAgentSource({ agents: deps.agents, maxDepth: policy.maxDepth, run: (input) => service.runSubAgent(input) }));
  const pages = new PageChat({ agents: deps.agents, chat: service, modelIds: () => deps.models.ids() });
  const facade: ChatFacade = {
    ...narrow(service, [
      'onEvent',
      'list',
      'get',
      'window',
      'create',
      'rename',
      'setBranch',
      'delete',
      'search',
      'export',
      'attach',
      'attachFile',
      'attachResource',
      'discardAttachment',
      'send',
      'sendPrompt',
      'postAppMessage',
      'setAppContext',
      'edit',
      'regenerate',
      'resume',
      'continue',
      'setModel',
      'stop',
      'cancelCall',
      'isRunning',
      'problems',
    ]),
    page: (app, request) => pages.handle(app, request),
  };
  return { service, facade };
}
