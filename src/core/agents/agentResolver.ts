import { HOST_UI_APP, isHostUiApp, type Agent } from '../../shared/agents.js';
import type { AppContribution } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import type { RegistryPrompt, RegistrySource } from '../../shared/registry.js';
import { RUN_ALLOWED, type RunGate, type RunGateAnswer, type RunPart } from '../policy/runGate.js';
import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { Caller, Flow } from '../tools/toolGateway.js';
import { suggestClosest } from '../naming/suggest.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { describeSource } from '../registry/registryOrigin.js';
import { registryId } from '../registry/registryTables.js';
import type { ServerTrouble } from '../mcp/serverTrouble.js';
import { exposureRefusal, hostEntryRefusal, missingAppRefusal, type ExposureKind } from './agentExposure.js';

export type PromptLang = 'zh' | 'en';

/**
 * What resolving reads: the registry's views and the catalog's apps, narrowed
 * so the rule can be tested with a registry and a list of apps, no host.
 */
export interface AgentResolverDeps {
  registry: Pick<RegistryCenter, 'ownerAppId' | 'isKnownApp' | 'listApps' | 'listServers' | 'listPrompts' | 'getMcpServersForApp' | 'getPromptsForApp'>;
  catalog: Pick<PluginCatalog, 'apps' | 'getAiContribution'>;
  /** Nothing of a plugin that may not run (untrusted, changed, blocked) reaches an agent: no server, no prompt text. */
  runGate: Pick<RunGate, 'checkCached'>;
  /** What is wrong with a server now (its command is not there, its last start failed): a warning on the agent that uses it. */
  serverTrouble?: (serverId: string) => Pick<ServerTrouble, 'message' | 'fix'> | undefined;
  /** The model entries, to report a `modelId` that names none; left out where models do not matter. */
  models?: { has(id: string): boolean };
  /** The agents, to report a `subAgents` id that names none; left out where sub-agents do not matter. */
  agents?: { get(id: string): Agent | undefined };
}

/** One piece of an agent's prompt text, in the order it appears. */
export interface AgentPromptPart {
  /** Registry id of the variant used (an app's own prompt: `<providerAppId>::mcp_<server>[__en]`). */
  id: string;
  title?: string;
  lang: PromptLang;
  /** `app`: the app's own `ai.mcpPrompt`, read from the plugin catalog; `registry`: a selected registry prompt. */
  source: 'registry' | 'app';
}

export interface ResolvedAgent {
  agent: Agent;
  /** The servers the agent is offered, before the flow: its selection ∩ what its host app may see; selection order, no repeats. */
  serverIds: string[];
  prompt: { text: string; parts: AgentPromptPart[] };
  /** What in the stored agent does not resolve now (warnings; nothing is removed from the agent). */
  problems: Problem[];
  /** The gateway caller for one run: the host app's grants, the agent's selection; the gateway applies flow and visibility again at call time. */
  callerFor(flow: Flow, conversationId: string): Caller;
}

const EN_SUFFIX = '__en';

/** `p::x__en` → `p::x`; `p::x` → `p::x`. */
const baseOf = (id: string) => (id.endsWith(EN_SUFFIX) ? id.slice(0, -EN_SUFFIX.length) : id);
const variantId = (base: string, lang: PromptLang) => (lang === 'en' ? `${base}${EN_SUFFIX}` : base);
const other = (lang: PromptLang): PromptLang => (lang === 'zh' ? 'en' : 'zh');

function didYouMean(word: string, candidates: Iterable<string>): string {
  const close = suggestClosest(word, candidates);
  return close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
}

/**
 * Resolves a stored agent against the registry and the plugin catalog
 * (docs/rules/agents.md#resolving-a-run): which servers it is offered, its
 * prompt text in its language, and what of it no longer resolves.
 *
 * Servers: for each `uiApps[i]` with `mcp: true`, the app's own server (when
 * the app brings one) then its `mcpServerIds`; kept are those the host app
 * may see. Prompts: for each `uiApps[i]` with `prompt: true`, the app's own
 * `mcpPrompt` then its `promptIds`, each in the agent's language with the
 * other as fallback, joined with blank lines. Problems describe the stored
 * agent, so every stored id is checked whether or not its switch is on.
 * A server or prompt whose plugin may not run now (untrusted, changed since
 * trusted, blocked) is left out with a problem saying how to trust it: its
 * tools and its text are a plugin's code as much as its server is.
 */
export function resolveAgent(agent: Agent, deps: AgentResolverDeps): ResolvedAgent {
  const { registry, catalog, runGate } = deps;
  const problems: Problem[] = [];
  const warn = (code: string, path: string, message: string, hint: string) => problems.push({ severity: 'warning', code, file: agent.id, path, message, hint });
  /** Whether what a plugin registered may reach the agent; a refusal is the problem at `path`. */
  const mayReach = (source: RegistrySource | { kind: 'plugin'; pluginId: string; pluginDir: string } | undefined, part: RunPart, path: string): boolean => {
    const gate: RunGateAnswer = source?.kind === 'plugin' ? runGate.checkCached(source, part) : RUN_ALLOWED;
    if (!gate.ok) warn(gate.code, path, gate.message, gate.fix);
    return gate.ok;
  };

  if (agent.modelId !== undefined && deps.models && !deps.models.has(agent.modelId)) {
    warn(
      'AGENT_MODEL_MISSING',
      'modelId',
      `no model "${agent.modelId}": the agent cannot chat until it has one`,
      'pick a model from "chatos models list" (or add one: chatos models add ID --preset openai)',
    );
  }

  if (deps.agents) {
    agent.subAgents.forEach((id, i) => {
      if (!deps.agents!.get(id)) warn('AGENT_SUBAGENT_MISSING', `subAgents[${i}]`, `no agent "${id}": it is not offered as a sub-agent`, 'create it, or remove it from subAgents');
    });
  }

  const hostAppId = agent.hostAppId;
  const hostKnown = registry.isKnownApp(hostAppId);
  if (!hostKnown) {
    warn(
      'AGENT_HOST_APP_UNKNOWN',
      'hostAppId',
      `host app "${hostAppId}" is not registered, so the agent sees nothing${didYouMean(
        hostAppId,
        registry.listApps().map((a) => a.appId),
      )}`,
      'set hostAppId to a registered app (see "chatos registry apps"), e.g. "chatos"',
    );
  }
  // A registration marked missing (its plugin or origin is gone) is not there for an agent.
  const allServers = registry.listServers().filter((s) => !s.missing);
  const allPrompts = registry.listPrompts().filter((p) => !p.missing);
  const serverById = new Map(allServers.map((s) => [s.id, s]));
  const promptById = new Map(allPrompts.map((p) => [p.id, p]));
  // An agent a page made acts for that page's plugin: of its app's own registrations, only that plugin's (docs/rules/registry.md#who-sees-what).
  const asPlugin = agent.ownerApp?.pluginId;
  const visibleServers = new Set(registry.getMcpServersForApp(hostAppId, asPlugin).map((s) => s.id));
  const visiblePrompts = new Set(registry.getPromptsForApp(hostAppId, asPlugin).map((p) => p.id));
  /** Whether the id names a registration (a prompt by either variant of its pair). */
  const isRegistered = (kind: ExposureKind, id: string) =>
    kind === 'mcpServers' ? serverById.has(id) : [id, variantId(baseOf(id), 'zh'), variantId(baseOf(id), 'en')].some((variant) => promptById.has(variant));
  const notVisibleHint = (id: string) =>
    hostAppId === registry.ownerAppId ? 'the registry owner sees everything registered; check the id' : `grant it: chatos grant ${hostAppId} ${id} (or remove it from the agent)`;

  const serverIds: string[] = [];
  /** Where in the agent each of its servers was chosen, for a problem about that server. */
  const chosenAt = new Map<string, string>();
  const parts: AgentPromptPart[] = [];
  const texts: string[] = [];
  const usedPromptIds = new Set<string>();

  const addPart = (part: AgentPromptPart, content: string) => {
    if (usedPromptIds.has(part.id)) return;
    usedPromptIds.add(part.id);
    const text = content.trim();
    if (!text) return;
    parts.push(part);
    texts.push(text);
  };

  agent.uiApps.forEach((uiApp, i) => {
    const at = `uiApps[${i}]`;
    const app: AppContribution | undefined = catalog.getAiContribution(uiApp.pluginId, uiApp.appId);
    // The host's own entry (docs/rules/agents.md#your-own-servers) is no plugin: nothing is missing.
    const hostEntry = !app && isHostUiApp(uiApp);
    if (!app && !hostEntry) {
      const installed = catalog.apps.map((a) => `${a.pluginId}/${a.appId}`);
      warn(
        'AGENT_APP_MISSING',
        at,
        `app "${uiApp.appId}" of plugin "${uiApp.pluginId}" is not installed${didYouMean(`${uiApp.pluginId}/${uiApp.appId}`, installed)}; it exposes nothing: its own server and prompt, and every server and prompt selected under it, are left out`,
        `install the plugin again (chatos install DIR), or remove this app from the agent (your own servers and prompts go under ChatOS's own entry, "${HOST_UI_APP.pluginId}/${HOST_UI_APP.appId}")`,
      );
    }

    // ── servers ──
    const ownServerId = app?.mcp ? registryId(app.providerAppId, app.serverName) : undefined;
    if (uiApp.mcp && ownServerId) {
      if (!serverById.has(ownServerId)) warn('AGENT_ID_MISSING', `${at}.mcp`, `the app's own server "${ownServerId}" is not registered`, 'rescan the plugins (its plugin may be invalid: chatos apps)');
      else if (!registeredBy(serverById.get(ownServerId)!, app!)) warn('AGENT_ID_HELD', `${at}.mcp`, heldMessage(ownServerId, serverById.get(ownServerId)!), heldFix);
      else if (!visibleServers.has(ownServerId)) warn('AGENT_ID_NOT_VISIBLE', `${at}.mcp`, `host app "${hostAppId}" may not see the app's own server "${ownServerId}"`, notVisibleHint(ownServerId));
      else if (mayReach({ kind: 'plugin', pluginId: app!.pluginId, pluginDir: app!.pluginDir }, 'server', `${at}.mcp`) && !serverIds.includes(ownServerId)) {
        serverIds.push(ownServerId);
        chosenAt.set(ownServerId, `${at}.mcp`);
      }
    }
    /**
     * Way B (docs/rules/names-and-exposure.md#exposure): an id outside what the app exposes now is left out (the store refuses it at save; the exposure may
     * have changed since). An app not installed exposes nothing; an id registered nowhere is left to the checks below,
     * which say so.
     */
    const exposed = (kind: ExposureKind, id: string, path: string): boolean => {
      const row = kind === 'mcpServers' ? serverById.get(id) : (promptById.get(id) ?? promptById.get(baseOf(id)));
      const refusal = app ? exposureRefusal(app, kind, id) : hostEntry ? hostEntryRefusal(kind, id, row) : isRegistered(kind, id) ? missingAppRefusal(uiApp, kind, id) : undefined;
      if (refusal) warn('AGENT_ID_NOT_EXPOSED', path, refusal.message, refusal.hint);
      return refusal === undefined;
    };
    uiApp.mcpServerIds.forEach((id, j) => {
      const path = `${at}.mcpServerIds[${j}]`;
      if (!exposed('mcpServers', id, path)) return;
      if (!serverById.has(id)) {
        const also = promptById.has(id) ? ' (that id is a prompt: list it under promptIds)' : didYouMean(id, serverById.keys());
        warn('AGENT_ID_MISSING', path, `no server with registry id "${id}"${also}`, 'pick a server from "chatos registry servers", or remove the id');
      } else if (!visibleServers.has(id)) {
        warn('AGENT_ID_NOT_VISIBLE', path, `host app "${hostAppId}" may not see server "${id}"`, notVisibleHint(id));
      } else if (mayReach(serverById.get(id)!.source, 'server', path) && uiApp.mcp && !serverIds.includes(id)) {
        serverIds.push(id);
        chosenAt.set(id, path);
      }
    });

    // ── prompts ──
    if (uiApp.prompt && app?.prompt && mayReach({ kind: 'plugin', pluginId: app.pluginId, pluginDir: app.pluginDir }, 'prompt', `${at}.prompt`)) {
      const own = app.prompt;
      const lang: PromptLang | undefined = own[agent.language] !== undefined ? agent.language : own[other(agent.language)] !== undefined ? other(agent.language) : undefined;
      if (lang) {
        const id = registryId(app.providerAppId, app.promptNames[lang]);
        // Read from the catalog (no DB needed: docs/rules/names-and-exposure.md#where-the-contribution-lives); a registered copy counts only if the host app may see it.
        const row = promptById.get(id);
        const registered = row !== undefined;
        if (row && !registeredBy(row, app)) warn('AGENT_ID_HELD', `${at}.prompt`, heldMessage(id, row), heldFix);
        else if (registered && !visiblePrompts.has(id)) warn('AGENT_ID_NOT_VISIBLE', `${at}.prompt`, `host app "${hostAppId}" may not see the app's own prompt "${id}"`, notVisibleHint(id));
        else if (registered || hostAppId === registry.ownerAppId) addPart({ id, title: own.title, lang, source: 'app' }, own[lang]!);
      }
    }
    uiApp.promptIds.forEach((id, j) => {
      const path = `${at}.promptIds[${j}]`;
      if (!exposed('prompts', id, path)) return;
      const base = baseOf(id);
      // The id names one variant; the pair (`name`, `name__en`) gives the agent's language, else the other.
      const wanted = promptById.get(variantId(base, agent.language));
      const fallback = promptById.get(variantId(base, other(agent.language)));
      const named = promptById.get(id);
      if (!named && !wanted && !fallback) {
        const also = serverById.has(id) ? ' (that id is a server: list it under mcpServerIds)' : didYouMean(id, promptById.keys());
        warn('AGENT_ID_MISSING', path, `no prompt with registry id "${id}"${also}`, 'pick a prompt from "chatos registry prompts", or remove the id');
        return;
      }
      const chosen = pickVariant(base, named, wanted, fallback);
      if (!visiblePrompts.has(chosen.id)) {
        warn('AGENT_ID_NOT_VISIBLE', path, `host app "${hostAppId}" may not see prompt "${chosen.id}"`, notVisibleHint(chosen.id));
        return;
      }
      if (!mayReach(chosen.source, 'prompt', path)) return;
      if (uiApp.prompt) addPart({ id: chosen.id, title: chosen.title, lang: langOf(chosen, base, promptById, agent.language), source: 'registry' }, chosen.content);
    });
  });

  // Kept (it may be fixed while the agent runs), but said: its tools will fail until the server starts.
  for (const id of serverIds) {
    const trouble = deps.serverTrouble?.(id);
    if (trouble) warn('AGENT_SERVER_BROKEN', chosenAt.get(id)!, `the agent uses a server that cannot start: ${trouble.message}`, trouble.fix);
  }

  return {
    agent,
    serverIds,
    prompt: { text: texts.join('\n\n'), parts },
    problems,
    callerFor(flow, conversationId) {
      return { appId: hostAppId, agentId: agent.id, conversationId, flow, serverIds: [...serverIds], ...(asPlugin !== undefined ? { asPlugin } : {}) };
    },
  };

  /** A pair's variant in the agent's language, else the other one; a prompt with no pair is used as it is. */
  function pickVariant(base: string, named: RegistryPrompt | undefined, wanted: RegistryPrompt | undefined, fallback: RegistryPrompt | undefined): RegistryPrompt {
    const paired = promptById.has(base) && promptById.has(variantId(base, 'en'));
    if (!paired && named) return named;
    return (wanted ?? fallback ?? named)!;
  }
}

/** Whether an app's own server or prompt id holds that app's row: another origin may hold the id (docs/rules/registry.md#ids), and its row is not the app's. */
function registeredBy(row: { source: RegistrySource }, app: AppContribution): boolean {
  return row.source.kind === 'plugin' && row.source.pluginId === app.pluginId;
}

const heldMessage = (id: string, row: { source: RegistrySource }) => `"${id}" is registered by ${describeSource(row.source)}, not by this app, so it is left out`;
const heldFix = 'rename the app id (or the plugin id) in plugin.json so its derived names differ (see Problems: REGISTRY_ID_HELD)';

/** A prompt's language: as registered, else by the pair convention (`name` zh, `name__en` en); a lone prompt without one is taken as the agent's. */
function langOf(prompt: RegistryPrompt, base: string, promptById: Map<string, RegistryPrompt>, agentLang: PromptLang): PromptLang {
  if (prompt.lang) return prompt.lang;
  if (prompt.id.endsWith(EN_SUFFIX)) return 'en';
  return promptById.has(variantId(base, 'en')) ? 'zh' : agentLang;
}
