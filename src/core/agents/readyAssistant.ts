import { HOST_UI_APP, type AgentInput, type AgentUiApp } from '../../shared/agents.js';
import type { AppContribution } from '../../shared/appContribution.js';
import type { RegistryMcpServer } from '../../shared/registry.js';
import { HOST_APP_ID } from '../dataHome.js';
import { registryId } from '../registry/registryTables.js';
import { isHostOwn } from './agentExposure.js';

/**
 * The ready assistant offered when the first model is added
 * (docs/using/agents.md#a-ready-assistant): an ordinary agent the user can
 * change or delete, that chats with that model and gets the tools a new
 * user can use safely at once:
 *
 * * the built-in apps that bring a server allowed in the main flow (Notes,
 *   Canvas), with their own prompts: they are part of ChatOS and keep their
 *   data in their own folders. Not the built-in apps of a provider app
 *   (Git for `git_app`, WSL for `wsl`): they act on the user's repositories
 *   and Linux systems, are granted to nobody, and are picked in the editor;
 * * the servers the user added (mcp.yaml, imported, templates): the user
 *   chose to run them, and their confirmations still apply.
 *
 * * the built-in tools that are safe for everyone (docs/using/agents.md#a-ready-assistant):
 *   time and calculator, local and read-only. Fetch reaches the network (a
 *   page it reads may carry instructions), so it is offered in the editor.
 *
 * Left out: the settings server (it changes agents and grants) and what any
 * plugin the user installed brings (picked in the editor when wanted).
 */

/** The built-in tools the ready assistant gets, switched on for it when off. */
export const READY_BUILTINS: ReadonlySet<string> = new Set(['time', 'calculator']);

export interface ReadyAssistantWorld {
  /** Every app of every loaded plugin (the plugin catalog). */
  apps: readonly AppContribution[];
  /** Every registered server (the registry). */
  servers: readonly RegistryMcpServer[];
  /** Whether an agent id is taken. */
  taken(id: string): boolean;
}

const TEXT = {
  zh: {
    name: '助手',
    description: '随时可用的通用助手：能记笔记、在画布上搭表单，也能用你自己添加的 MCP 服务器。',
    systemPrompt: '你是一个乐于助人的助手。回答清楚、简洁；需要时使用提供给你的工具，并告诉用户你做了什么。',
  },
  en: {
    name: 'Assistant',
    description: 'A ready general assistant: keeps notes, builds forms on the Canvas, and uses the MCP servers you added.',
    systemPrompt: 'You are a helpful assistant. Answer clearly and briefly; use the tools you are given when they help, and tell the user what you did.',
  },
} as const;

/** `assistant`, else `assistant-2`, … : the first id no agent has. */
function freeId(taken: (id: string) => boolean): string {
  if (!taken('assistant')) return 'assistant';
  for (let n = 2; ; n++) if (!taken(`assistant-${n}`)) return `assistant-${n}`;
}

/** The agent to create (the store still validates it as any other). */
export function readyAssistantInput(options: { modelId: string; language: 'zh' | 'en' }, world: ReadyAssistantWorld): AgentInput {
  const text = TEXT[options.language];
  const uiApps: AgentUiApp[] = world.apps
    .filter((app) => app.source === 'builtin' && app.mcp !== undefined && app.allowMain && app.providerAppId === app.pluginId)
    .map((app) => ({ pluginId: app.pluginId, appId: app.appId, mcp: true, prompt: app.prompt !== undefined, mcpServerIds: [registryId(app.providerAppId, app.serverName)], promptIds: [] }));
  const ready = [...READY_BUILTINS].map((name) => registryId(HOST_APP_ID, name)).filter((id) => world.servers.some((s) => s.id === id && !s.missing));
  const own = [...ready, ...world.servers.filter((s) => !s.missing && s.enabled && s.allowMain && s.source.kind !== 'builtin' && isHostOwn(s.id, s)).map((s) => s.id)];
  if (own.length > 0) uiApps.push({ ...HOST_UI_APP, mcp: true, prompt: false, mcpServerIds: own, promptIds: [] });
  return {
    id: freeId(world.taken),
    name: text.name,
    description: text.description,
    language: options.language,
    modelId: options.modelId,
    systemPrompt: text.systemPrompt,
    uiApps,
  };
}
