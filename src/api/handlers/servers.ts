import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import type { ServerView } from '../../shared/hostApi.js';
import type { Host } from '../../core/host.js';
import { buildCatalog } from '../../core/mcp/catalog/toolCatalog.js';
import { stateOfLeases } from '../../core/mcp/connection/connectionManager.js';
import type { ServerConnection } from '../../core/mcp/connection/serverConnection.js';
import { resolvePermission } from '../../core/mcp/gateway/permissions.js';
import { troubleProblem } from '../../core/mcp/serverTrouble.js';
import { ownValue } from '../../shared/ownKeys.js';
import { ApiFailure } from '../apiErrors.js';
import type { HandlerContext, Handlers } from './types.js';

/**
 * An instance the servers page starts (to list tools, or to check a restart)
 * belongs to that one operation: its own conversation, ended when the
 * operation is done, so the page holds nothing once it is left.
 */
async function withOwnInstance<T>(host: Host, definition: ServerDefinition, use: (connection: ServerConnection) => T): Promise<T> {
  const conversationId = `servers-page:${randomUUID()}`;
  try {
    return use((await host.mcp.connections.acquire(definition, conversationId)).lease.connection);
  } finally {
    await host.endConversation(conversationId);
  }
}

function launchOf(definition: ServerDefinition): string {
  const { transport } = definition;
  if (transport.kind === 'stdio') return [transport.command, ...transport.args].map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');
  if (transport.kind === 'streamable_http') return transport.url;
  return 'in-process';
}

/** Problems that name this server: its registry id as the file, or its entry in mcp.yaml. */
export function problemsOfServer(problems: readonly Problem[], definition: ServerDefinition): Problem[] {
  return problems.filter((p) => p.file === definition.id || p.path === `servers.${definition.name}` || p.path.startsWith(`servers.${definition.name}.`));
}

function requireServer(host: Host, serverId: string): ServerDefinition {
  const definition = host.mcp.definition(serverId);
  if (!definition) throw new ApiFailure('NOT_FOUND', `no server "${serverId}"`, 'see the MCP servers page for the servers the host knows');
  return definition;
}

/** A server's raw tool list: cached, or from a running instance, or by starting one (the user asked to see them). */
async function rawToolsOf(host: Host, definition: ServerDefinition): Promise<Tool[]> {
  const cached = host.mcp.cachedTools(definition.id);
  if (cached) return cached;
  const running = host.mcp.connections.anyRunning(definition.id);
  const tools = running ? [...running.tools] : await withOwnInstance(host, definition, (connection) => [...connection.tools]);
  host.mcp.rememberTools(definition, tools);
  return tools;
}

export function serverHandlers({ host, emit }: HandlerContext): Handlers<'servers.list' | 'servers.tools' | 'servers.restart' | 'servers.log' | 'servers.setEnabled' | 'servers.setToolEnabled' | 'servers.setPermission'> {
  return {
    'servers.list': () => {
      const snapshots = new Map(host.mcp.connections.snapshot().map((s) => [s.serverId, s]));
      const problems = host.mcp.problems;
      const servers = host.mcp
        .allDefinitions()
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((definition): ServerView => {
          const snapshot = snapshots.get(definition.id);
          const description = host.registry.getServer(definition.id)?.description;
          const trouble = host.serverTrouble(definition.id);
          const leased = stateOfLeases(snapshot);
          return {
            id: definition.id,
            name: definition.name,
            category: definition.category,
            origin: definition.origin,
            ...(description ? { description } : {}),
            launch: launchOf(definition),
            disabled: definition.disabled,
            switchedOff: host.serverSettings.of(definition.id).disabled,
            // A server that cannot start is shown broken, not stopped, even with no instance left to say so.
            state: leased.kind === 'stopped' && trouble ? { kind: 'error', message: trouble.message, at: trouble.at } : leased,
            leases: snapshot?.leases.map(({ pid, ...lease }) => ({ ...lease, ...(pid === undefined ? {} : { pid }) })) ?? [],
            problems: [...problemsOfServer(problems, definition), ...(trouble ? [troubleProblem(definition.id, trouble)] : [])],
          };
        });
      return { servers };
    },
    'servers.tools': async ({ serverId }) => {
      const definition = requireServer(host, serverId);
      if (definition.disabled) throw new ApiFailure('NOT_ALLOWED', `server ${serverId} is disabled, so it does not start`, 'enable it in its configuration first');
      if (host.serverSettings.of(serverId).disabled) throw new ApiFailure('NOT_ALLOWED', `server ${serverId} is switched off, so it does not start`, 'switch it on with its switch on the MCP servers page first');
      const tools = await rawToolsOf(host, definition);
      const settings = host.serverSettings.of(serverId);
      const off = new Set([...definition.disabledTools, ...settings.disabledTools]);
      // The catalog of this server alone: which final name each tool gets, and why a tool is rejected.
      const catalog = buildCatalog([{ server: definition, tools }], []);
      const finalName = new Map(catalog.tools.map((t) => [t.rawName, t.name]));
      return {
        tools: tools.map((tool) => {
          const { level, source } = resolvePermission(definition, tool, ownValue(settings.permissionOverrides, tool.name));
          const name = finalName.get(tool.name);
          return { rawName: tool.name, ...(name ? { name } : {}), description: tool.description ?? '', enabled: !off.has(tool.name), permission: level, permissionSource: source, inputSchema: tool.inputSchema as Record<string, unknown> };
        }),
        problems: catalog.problems,
      };
    },
    'servers.restart': async ({ serverId }) => {
      const definition = requireServer(host, serverId);
      const before = host.mcp.connections.snapshot().find((s) => s.serverId === serverId)?.leases.length ?? 0;
      await host.mcp.connections.retire(serverId);
      // It must start again (a failure is the answer, and stays on its card); conversations start their own instances when they next call.
      if (!definition.disabled && !host.serverSettings.of(serverId).disabled) await withOwnInstance(host, definition, (connection) => host.mcp.rememberTools(definition, [...connection.tools]));
      return { restarted: before };
    },
    'servers.log': ({ serverId }) => {
      requireServer(host, serverId);
      return { lines: host.mcp.connections.logOf(serverId).entries().map((e) => `${new Date(e.at).toISOString()} [${e.stream}] ${e.text}${e.count ? ` (×${e.count})` : ''}`) };
    },
    'servers.setEnabled': async ({ serverId, enabled }) => {
      requireServer(host, serverId);
      host.serverSettings.setServerEnabled(serverId, enabled);
      // Switched off means no instance keeps running either: end every conversation's lease now.
      if (!enabled) await host.mcp.connections.retire(serverId);
      emit({ type: 'server.settings', serverId });
      return {};
    },
    'servers.setToolEnabled': ({ serverId, tool, enabled }) => {
      requireServer(host, serverId);
      host.serverSettings.setToolEnabled(serverId, tool, enabled);
      emit({ type: 'server.settings', serverId });
      return {};
    },
    'servers.setPermission': ({ serverId, tool, level }) => {
      requireServer(host, serverId);
      host.serverSettings.setPermission(serverId, tool, level ?? undefined);
      emit({ type: 'server.settings', serverId });
      return {};
    },
  };
}
