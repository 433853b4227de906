import * as path from 'node:path';
import type { Host } from '../core/host.js';
import { parseRequest, type HostApiMethod, type HostApiReply, type HostEventMessage } from '../shared/hostApi.js';
import { toApiError } from './apiErrors.js';
import { agentHandlers } from './handlers/agents.js';
import { appHandlers } from './handlers/apps.js';
import { chatHandlers, wireChatEvents } from './handlers/chat.js';
import { mcpAppHandlers } from './handlers/mcpApps.js';
import { bundleHandlers, MAX_BUNDLE_UPLOAD_BYTES } from './handlers/bundles.js';
import { OpenedBundles } from './handlers/openedBundles.js';
import { mcpServerHandlers } from './handlers/mcpServers.js';
import { catalogHandlers } from './handlers/catalog.js';
import { modelHandlers } from './handlers/models.js';
import { promptHandlers } from './handlers/prompts.js';
import { knowledgeHandlers } from './handlers/knowledge.js';
import { pageChatHandlers } from './handlers/pageChat.js';
import { currentProblems, infoHandlers } from './handlers/problems.js';
import { diagnosticsHandlers } from './handlers/diagnostics.js';
import { questionHandlers } from './handlers/questions.js';
import { samplingHandlers } from './handlers/sampling.js';
import { registryHandlers } from './handlers/registry.js';
import { rootHandlers } from './handlers/roots.js';
import { serverHandlers } from './handlers/servers.js';
import { settingsHandlers } from './handlers/settings.js';
import { toolHandlers } from './handlers/tools.js';
import { mcpPromptHandlers } from './handlers/mcpPrompts.js';
import { resourceHandlers } from './handlers/resources.js';
import type { HandlerContext, HandlerRequest, Handlers } from './handlers/types.js';
import type { FaceUrls, HostApiService } from './types.js';

export type { FaceUrls, HostApiService } from './types.js';

export interface HostApiServiceOptions {
  face: 'electron' | 'serve';
  urls: FaceUrls;
  version: string;
  /** The UI's default language; default the system's. */
  locale?: string;
  /** The desktop app's system browser, for sign-in pages; without it (serve) the page opens the url in a new tab (event auth.openUrl). */
  openExternal?: (url: string) => void;
  /** The desktop app's folder picker, for a plugin folder to install; without it (serve) the folder's path is typed. */
  pickFolder?: () => Promise<string | undefined>;
}

/**
 * Binds the HostApi contract to a started host. Faces pass raw payloads in;
 * each is checked against the contract before any handler runs, and the
 * core's events are translated into the contract's events for the UI.
 */
export function createHostApiService(host: Host, options: HostApiServiceOptions): HostApiService {
  const listeners = new Set<(event: HostEventMessage) => void>();
  const emit = (event: HostEventMessage) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        host.setup.logger.warn(`an event listener failed: ${(error as Error).message}`);
      }
    }
  };
  const context: HandlerContext = {
    host,
    urls: options.urls,
    emit,
    face: options.face,
    version: options.version,
    locale: options.locale ?? Intl.DateTimeFormat().resolvedOptions().locale,
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
  };
  const opened = new OpenedBundles(MAX_BUNDLE_UPLOAD_BYTES);
  const handlers: Handlers = {
    ...infoHandlers(context),
    ...diagnosticsHandlers(context),
    ...appHandlers(context),
    ...bundleHandlers(context, opened),
    ...agentHandlers(context),
    ...modelHandlers(context),
    ...registryHandlers(context),
    ...rootHandlers(context),
    ...serverHandlers(context),
    ...toolHandlers(context),
    ...mcpPromptHandlers(context),
    ...resourceHandlers(context),
    ...mcpAppHandlers(context),
    ...questionHandlers(context),
    ...samplingHandlers(context),
    ...chatHandlers(context),
    ...mcpServerHandlers(context),
    ...catalogHandlers(context),
    ...promptHandlers(context),
    ...knowledgeHandlers(context),
    ...pageChatHandlers(context),
    ...settingsHandlers(context),
  };
  const stops = wireEvents(host, options.urls, emit);

  return {
    async handle(raw, origin): Promise<HostApiReply> {
      const request = parseRequest(raw);
      if (!request.ok) return { ok: false, error: request.error };
      const client = plainClient(origin?.client);
      // A call made for a conversation from a tab keeps that conversation's instances only while the tab is there.
      if (client && HOLDING_METHODS.has(request.method)) host.tools.leases.hold(client, (request.params as { conversationId: string }).conversationId);
      try {
        const handler = handlers[request.method] as (params: unknown, request: HandlerRequest) => unknown;
        return { ok: true, result: (await handler(request.params, { signal: origin?.signal })) as HostApiReply<HostApiMethod> extends { result: infer R } ? R : never };
      } catch (error) {
        return { ok: false, error: toApiError(error) };
      }
    },
    openBundle(file, cwd) {
      const read = opened.add(file, cwd);
      emit({ type: 'bundle.opened', fileName: read.ok ? read.name : read.file });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clientConnected(client) {
      const id = plainClient(client);
      if (id) host.tools.leases.connected(id);
    },
    clientDisconnected(client) {
      const id = plainClient(client);
      if (id) host.tools.leases.disconnected(id);
    },
    dispose() {
      for (const stop of stops) stop();
      listeners.clear();
    },
  };
}

/** Methods that run for a conversation: the client that sends one holds that conversation. */
const HOLDING_METHODS: ReadonlySet<HostApiMethod> = new Set([
  'tools.list',
  'tools.call',
  'uiApps.callTool',
  'uiApps.mcpAppView',
  'uiApps.mcpAppCall',
  'uiApps.mcpAppReadResource',
  'uiApps.mcpAppListResources',
]);

/** A holder id from a face (a browser tab's client id): short, plain, so it is safe to log and to keep. */
const HOLDER_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
const plainClient = (client: string | undefined) => (client !== undefined && HOLDER_ID_PATTERN.test(client) ? client : undefined);

/** The core's own events, as the UI needs them: what changed, so a page reloads only what it shows. */
function wireEvents(host: Host, urls: FaceUrls, emit: (event: HostEventMessage) => void): (() => void)[] {
  const problemsChanged = () => emit({ type: 'problems.changed', count: currentProblems(host).length });
  return [
    wireChatEvents(host, urls, emit, problemsChanged),
    host.events.on((event) => {
      if (event.kind === 'app-tool-called') {
        // Every call to an app's server: passed on as it is, without the problem count a reload needs.
        const { kind: _kind, serverId: _serverId, ...call } = event;
        return emit({ type: 'uiApp.toolCalled', ...call });
      }
      // A server's own new tool list: the pages that show its tools re-read them; no problem count changes with it.
      if (event.kind === 'mcp-tools-changed') return emit({ type: 'server.tools', serverId: event.serverId });
      // A subscribed resource (or a server's list of them) changed: a resource browser re-reads it.
      if (event.kind === 'mcp-resource-changed') {
        const { serverId, conversationId } = event;
        return emit(
          event.change === 'updated'
            ? { type: 'server.resources', serverId, conversationId, change: 'updated', uri: event.uri }
            : { type: 'server.resources', serverId, conversationId, change: 'list' },
        );
      }
      if (event.kind === 'plugins-rescanned') {
        emit({ type: 'plugins.changed', reread: event.reread, removed: event.removed, problems: event.problems });
        // A rescan re-syncs the registry, and an edited page must reload in its frame.
        emit({ type: 'registry.changed' });
        for (const pluginId of pluginIdsOf(host, event.reread)) emit({ type: 'uiApp.changed', pluginId });
      } else if (event.kind === 'trust-changed') {
        // Trust taken back (or given) in another process: lists, the registry's marks and open pages are stale.
        emit({ type: 'plugins.changed', reread: [], removed: [], problems: host.plugins.catalog.problems.length });
        emit({ type: 'registry.changed' });
        for (const pluginId of event.pluginIds) emit({ type: 'uiApp.changed', pluginId });
      } else if (event.kind === 'lists-changed') {
        // Changed here by a core path (the settings server) or by another process: every window's lists re-read.
        for (const { list, ids } of event.changes) {
          if (list === 'models') emit({ type: 'models.changed' });
          else if (list === 'agents') emit({ type: 'agents.changed' });
          else for (const knowledgeBaseId of ids) emit({ type: 'knowledge.changed', knowledgeBaseId });
        }
      } else if (event.kind === 'dev-reloaded') {
        emit({ type: 'plugins.devReloaded', pluginId: event.pluginId, changes: event.changes, runPlanChanged: event.runPlanChanged });
        emit({ type: 'uiApp.changed', pluginId: event.pluginId });
      } else {
        const { version, added, changed, removed } = event.report;
        emit({ type: 'mcp.reloaded', version, added, changed, removed });
      }
      problemsChanged();
    }),
    host.questions.on((change) => {
      emit({ type: 'question', ...change });
      // A tool's confirmation also under the names the specification gives it, for the pages of the app whose server it is.
      const { question } = change;
      if (question.kind !== 'toolConfirmation') return;
      const { request } = question;
      if (change.change === 'asked') emit({ type: 'mcp:tool_confirmation_required', request, ...appOfServer(host, request.serverName) });
      if (change.change === 'resolved' && change.outcome === 'expired') emit({ type: 'mcp:tool_confirmation_expired', id: request.id, request, ...appOfServer(host, request.serverName) });
    }),
    host.mcp.servers.onStateChange((serverId, conversationId, state) => {
      emit({ type: 'server.state', serverId, conversationId, state });
      if (state.kind === 'error') problemsChanged();
    }),
  ];
}

/** The UI app whose own server this is, so its pages hear of the questions about its tools. */
function appOfServer(host: Host, serverId: string): { uiApp?: { pluginId: string; appId: string } } {
  const plugin = host.mcp.definition(serverId)?.plugin;
  return plugin ? { uiApp: { pluginId: plugin.pluginId, appId: plugin.appId } } : {};
}

/** Plugin ids of the re-read plugin folders (a rescan reports folders). */
function pluginIdsOf(host: Host, dirs: readonly string[]): string[] {
  const wanted = new Set(dirs.map((dir) => path.resolve(dir)));
  return host.plugins.catalog.plugins.filter((p) => p.id && wanted.has(path.resolve(p.dir))).map((p) => p.id!);
}
