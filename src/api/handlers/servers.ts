import type { HandlerContext, Handlers } from './types.js';

/** The MCP servers page: the core's server administration, and an event for each switch so other windows re-read. */
export function serverHandlers({
  host,
  emit,
}: HandlerContext): Handlers<'servers.list' | 'servers.tools' | 'servers.restart' | 'servers.log' | 'servers.setLogLevel' | 'servers.setEnabled' | 'servers.setToolEnabled' | 'servers.setPermission'> {
  const servers = () => host.mcp.servers;
  return {
    'servers.list': () => ({ servers: servers().list() }),
    'servers.tools': ({ serverId }) => servers().tools(serverId),
    'servers.restart': async ({ serverId }) => ({ restarted: await servers().restart(serverId) }),
    'servers.log': ({ serverId }) => ({ lines: servers().log(serverId) }),
    'servers.setLogLevel': async ({ serverId, level }) => {
      const result = await servers().setLogLevel(serverId, level ?? undefined);
      emit({ type: 'server.settings', serverId });
      return result;
    },
    'servers.setEnabled': async ({ serverId, enabled }) => {
      await servers().setEnabled(serverId, enabled);
      emit({ type: 'server.settings', serverId });
      return {};
    },
    'servers.setToolEnabled': ({ serverId, tool, enabled }) => {
      servers().setToolEnabled(serverId, tool, enabled);
      emit({ type: 'server.settings', serverId });
      return {};
    },
    'servers.setPermission': ({ serverId, tool, level }) => {
      servers().setPermission(serverId, tool, level ?? undefined);
      emit({ type: 'server.settings', serverId });
      return {};
    },
  };
}
