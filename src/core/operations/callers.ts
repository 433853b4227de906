import type { AppContribution } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import { resolveAgent, type AgentResolverDeps } from '../agents/agentResolver.js';
import type { AgentStore } from '../agents/agentStore.js';
import type { Caller, Flow } from '../tools/toolGateway.js';
import { suggestClosest } from '../naming/suggest.js';
import type { RunGate } from '../policy/runGate.js';
import { OperationError } from './operationError.js';

export interface CallersDeps extends AgentResolverDeps {
  agents: Pick<AgentStore, 'get' | 'list'>;
  apps(): readonly AppContribution[];
  runGate: Pick<RunGate, 'check' | 'checkCached'>;
  /** An agent's calls in a conversation the chat does not store (the Playground's): its instances get that agent's workspace roots. */
  noteAgent?(conversationId: string, agentId: string): void;
}

/**
 * Who calls a tool, built the one way every face builds it: an agent (its
 * host app, its selection), an app as itself (scripts: `chatos call --app`),
 * or an app's page calling its own server. The gateway then decides what
 * that caller may use; nothing here grants anything.
 */
export class Callers {
  constructor(private readonly deps: CallersDeps) {}

  /** An agent in a flow; an unknown agent is NOT_FOUND with close matches. The agent's resolution problems are warnings to show. */
  agent(agentId: string, flow: Flow, conversationId: string): { caller: Caller; problems: Problem[] } {
    const agent = this.deps.agents.get(agentId);
    if (!agent) {
      const known = this.deps.agents.list().map((a) => a.id);
      const close = suggestClosest(agentId, known);
      throw new OperationError(
        'NOT_FOUND',
        `no agent "${agentId}"${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
        known.length ? 'list agents with "chatos agents list" (or see the Agents page)' : 'create one with "chatos agents create --file agent.json" (or on the Agents page)',
      );
    }
    const resolved = resolveAgent(agent, this.deps);
    this.deps.noteAgent?.(conversationId, agent.id);
    return { caller: resolved.callerFor(flow, conversationId), problems: resolved.problems };
  }

  /** An app acting as itself: the tools it may see and its grants, with no selection. */
  app(appId: string, flow: Flow, conversationId: string): Caller {
    return { appId, conversationId, flow };
  }

  /** A loaded app, or NOT_FOUND naming what is installed. */
  findApp(pluginId: string, appId: string): AppContribution {
    const app = this.deps.apps().find((a) => a.pluginId === pluginId && a.appId === appId);
    if (!app) throw new OperationError('NOT_FOUND', `no app ${pluginId}/${appId} is installed`, 'see the Apps page for what is installed');
    return app;
  }

  /** Nothing of a plugin that may not run is used: not its page, not its backend, not its server (the gateway checks that too). */
  requireRunnable(app: AppContribution): void {
    const allowed = this.deps.runGate.check({ pluginId: app.pluginId, pluginDir: app.pluginDir }, 'plugin');
    if (!allowed.ok) throw new OperationError('NOT_ALLOWED', allowed.message, allowed.fix);
  }

  /**
   * A page calls its own server's tools as its provider app, restricted to
   * that one server: it cannot reach another app's tools even when its
   * provider may see them. The flow flags still apply (main where the app
   * allows it, else sub), so a page gets no more than an agent using the app.
   */
  page(pluginId: string, appId: string, conversationId: string): Caller {
    const app = this.findApp(pluginId, appId);
    this.requireRunnable(app);
    if (!app.mcp) throw new OperationError('NOT_FOUND', `app ${pluginId}/${appId} has no MCP server of its own`, 'add "ai.mcp" to the app in plugin.json');
    if (!app.allowMain && !app.allowSub)
      throw new OperationError('NOT_ALLOWED', `app ${pluginId}/${appId} allows neither main nor sub flows, so its tools cannot be called`, 'set "allowSub": true (or "allowMain") in ai.mcp');
    return {
      appId: app.providerAppId,
      asPlugin: app.pluginId,
      conversationId,
      flow: app.allowMain ? 'main' : 'sub',
      serverIds: [`${app.providerAppId}::${app.serverName}`],
      fromPage: true,
    };
  }
}
