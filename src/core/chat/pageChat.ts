import type { Agent } from '../../shared/agents.js';
import type { Conversation, ConversationMessage } from '../../shared/chat.js';
import type { PageAgentFields, PageChatRequest, PageSession } from '../../shared/pageChat.js';
import type { AgentStore } from '../agents/agentStore.js';
import { ChatError } from './chatError.js';
import type { ChatService } from './chatService.js';

/** The app a page belongs to, as the shell bound its frame (never what the page claims). */
export interface PageApp {
  pluginId: string;
  appId: string;
  /** The app the page's agents act as: its own registrations and its grants are all they may use. */
  providerAppId: string;
  name: string;
}

export interface PageChatDeps {
  agents: AgentStore;
  chat: ChatService;
  /** Model entry ids, in the user's order: a page's agent without one gets the first. */
  modelIds(): string[];
}

const sessionOf = (c: Conversation): PageSession => ({ id: c.id, agentId: c.agentId, title: c.title, createdAt: c.createdAt, updatedAt: c.updatedAt, status: c.status.kind });

/**
 * The original ChatOS page API for chat (`host.chat.*`), scoped to one app:
 * its page sees, changes and chats with only the agents it created (marked
 * with the app as their owner) and their conversations. Those agents act as
 * the app (its provider id is their host app), so the registry's grants
 * decide what they may use, and every tool call goes through the gateway and
 * its confirmations like any agent's. Enforced here, whichever face asks.
 */
export class PageChat {
  constructor(private readonly deps: PageChatDeps) {}

  async handle(app: PageApp, request: PageChatRequest): Promise<Record<string, unknown>> {
    switch (request.op) {
      case 'agents.list':
        return { agents: this.ownAgents(app) };
      case 'agents.ensureDefault':
        return { agent: this.ownAgents(app)[0] ?? this.create(app, {}) };
      case 'agents.create':
      case 'agents.createForApp':
        return { agent: this.create(app, request.agent) };
      case 'agents.update':
        return { agent: this.update(app, request.id, request.patch) };
      case 'agents.delete':
        this.ownAgent(app, request.id);
        return { removed: this.deps.agents.delete(request.id) };
      case 'sessions.list':
        return { sessions: this.ownSessions(app).map(sessionOf) };
      case 'sessions.ensureDefault': {
        const agentId = request.agentId ?? (this.ownAgents(app)[0] ?? this.create(app, {})).id;
        this.ownAgent(app, agentId);
        const newest = this.ownSessions(app).find((c) => c.agentId === agentId);
        return { session: sessionOf(newest ?? this.deps.chat.create(agentId)) };
      }
      case 'sessions.create': {
        const agentId = request.agentId ?? (this.ownAgents(app)[0] ?? this.create(app, {})).id;
        this.ownAgent(app, agentId);
        return { session: sessionOf(this.deps.chat.create(agentId, request.title ?? '')) };
      }
      case 'messages.list': {
        this.ownSession(app, request.sessionId);
        const messages: ConversationMessage[] = this.deps.chat.get(request.sessionId).messages;
        const shown = request.limit === undefined ? messages : messages.slice(-request.limit);
        return { messages: shown, hasMore: shown.length < messages.length };
      }
      case 'send': {
        this.ownSession(app, request.sessionId);
        const started = this.deps.chat.send({ conversationId: request.sessionId, text: request.text });
        // The page learns the outcome from its events; an unexpected failure is the conversation's stopped state.
        started.done.catch(() => undefined);
        return { sessionId: started.conversationId, userMessageId: started.userMessageId };
      }
      case 'abort':
        this.ownSession(app, request.sessionId);
        return { aborted: this.deps.chat.stop(request.sessionId) };
    }
  }

  /** Whether a conversation is one of this app's (the shell forwards chat events of those only). */
  owns(app: PageApp, conversationId: string): boolean {
    try {
      this.ownSession(app, conversationId);
      return true;
    } catch {
      return false;
    }
  }

  private isOwn(app: PageApp, agent: Agent | undefined): agent is Agent {
    return agent?.ownerApp?.pluginId === app.pluginId && agent.ownerApp.appId === app.appId;
  }

  private ownAgents(app: PageApp): Agent[] {
    return this.deps.agents.list().filter((agent) => this.isOwn(app, agent));
  }

  private ownAgent(app: PageApp, id: string): Agent {
    const agent = this.deps.agents.get(id);
    if (!this.isOwn(app, agent))
      throw new ChatError('NOT_THE_APPS', `agent "${id}" is not one of ${app.pluginId}/${app.appId}'s agents`, 'a page may use only the agents it created (host.chat.agents.create or createForApp)');
    return agent;
  }

  private ownSessions(app: PageApp): Conversation[] {
    const own = new Set(this.ownAgents(app).map((a) => a.id));
    return this.deps.chat.list().filter((c) => own.has(c.agentId));
  }

  private ownSession(app: PageApp, id: string): Conversation {
    const conversation = this.deps.chat.list({ includeChildren: true }).find((c) => c.id === id);
    if (!conversation || !this.isOwn(app, this.deps.agents.get(conversation.agentId))) {
      throw new ChatError('NOT_THE_APPS', `conversation "${id}" is not one of ${app.pluginId}/${app.appId}'s`, "a page may use only its own agents' conversations (host.chat.sessions.list)");
    }
    return conversation;
  }

  /** A new agent of the app: acting as the app, with the app's own server and prompt on, owned by it. */
  private create(app: PageApp, fields: PageAgentFields): Agent {
    const modelId = fields.modelId ?? this.deps.modelIds()[0];
    if (!modelId) throw new ChatError('NO_MODEL', `no model is configured for ${app.pluginId}/${app.appId}'s agent`, 'add a model on the Models page (or: chatos models add), then try again');
    for (const sub of fields.subAgents ?? []) this.ownAgent(app, sub);
    return this.deps.agents.create({
      name: fields.name ?? `${app.name} agent`,
      description: fields.description ?? `The agent of ${app.name} (${app.pluginId}/${app.appId})`,
      ...(fields.language ? { language: fields.language } : {}),
      hostAppId: app.providerAppId,
      modelId,
      systemPrompt: fields.systemPrompt ?? fields.prompt ?? '',
      subAgents: fields.subAgents ?? [],
      uiApps: [{ pluginId: app.pluginId, appId: app.appId, mcp: true, prompt: true, mcpServerIds: fields.mcpServerIds ?? [], promptIds: fields.promptIds ?? [] }],
      ownerApp: { pluginId: app.pluginId, appId: app.appId },
    });
  }

  private update(app: PageApp, id: string, patch: PageAgentFields): Agent {
    const current = this.ownAgent(app, id);
    for (const sub of patch.subAgents ?? []) this.ownAgent(app, sub);
    const own = current.uiApps.find((u) => u.pluginId === app.pluginId && u.appId === app.appId) ?? {
      pluginId: app.pluginId,
      appId: app.appId,
      mcp: true,
      prompt: true,
      mcpServerIds: [],
      promptIds: [],
    };
    return this.deps.agents.update(id, {
      ...current,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.language !== undefined ? { language: patch.language } : {}),
      ...(patch.modelId !== undefined ? { modelId: patch.modelId } : {}),
      ...(patch.systemPrompt !== undefined || patch.prompt !== undefined ? { systemPrompt: patch.systemPrompt ?? patch.prompt } : {}),
      ...(patch.subAgents !== undefined ? { subAgents: patch.subAgents } : {}),
      uiApps: [{ ...own, ...(patch.mcpServerIds ? { mcpServerIds: patch.mcpServerIds } : {}), ...(patch.promptIds ? { promptIds: patch.promptIds } : {}) }],
      // What the agent acts as and who owns it are not the page's to change.
      hostAppId: app.providerAppId,
      ownerApp: { pluginId: app.pluginId, appId: app.appId },
    });
  }
}
