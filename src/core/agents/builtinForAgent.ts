import { HOST_UI_APP, isHostUiApp, type Agent, type AgentUiApp } from '../../shared/agents.js';

/**
 * The agent with one more of the host's own servers picked (its host entry's
 * `mcpServerIds`, docs/rules/agents.md#your-own-servers): what "add" of a
 * ready built-in tool (docs/using/agents.md#ready-built-in-tools) does to the one agent it is added to. No
 * other agent changes, and the registry grants nothing: picking is what
 * gives an agent a host server.
 */
export function withHostServer(agent: Agent, serverId: string): Agent {
  const entry = agent.uiApps.find(isHostUiApp);
  if (entry?.mcp && entry.mcpServerIds.includes(serverId)) return agent;
  const next: AgentUiApp = entry ? { ...entry, mcp: true, mcpServerIds: [...entry.mcpServerIds, serverId] } : { ...HOST_UI_APP, mcp: true, prompt: false, mcpServerIds: [serverId], promptIds: [] };
  return { ...agent, uiApps: entry ? agent.uiApps.map((app) => (isHostUiApp(app) ? next : app)) : [next, ...agent.uiApps] };
}
