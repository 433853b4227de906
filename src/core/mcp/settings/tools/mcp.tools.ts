import { z } from 'zod';
import { dataResult, didYouMean, errorResult, quoted } from '../toolResults.js';
import { defineTool, type ToolModule } from '../types.js';

export const mcpModule: ToolModule = {
  domain: 'mcp',
  tools: [
    defineTool({
      name: 'list_mcp_servers',
      description:
        'List every MCP server the host knows (mcp.yaml, plugins, provider apps, built-in) with its category, origin and state (disabled, stopped, starting, running, error), and, once it has run, its tools with whether each is switched on.',
      permission: 'read',
      inputSchema: {},
      async handler(_args, ctx) {
        const servers = ctx.servers.list();
        const running = servers.filter((s) => s.state.kind === 'running').length;
        const failed = servers.filter((s) => s.state.kind === 'error').length;
        return dataResult(`${servers.length} server${servers.length === 1 ? '' : 's'}, ${running} running${failed ? `, ${failed} in error` : ''}.`, { servers });
      },
    }),
    defineTool({
      name: 'set_tool_enabled',
      description:
        'Switch one tool of an MCP server on or off for every conversation. A tool switched off is no longer offered to any model; the server keeps running. Use the raw tool name list_mcp_servers shows, not the mcp_<server>_<tool> name. ' +
        'Switching a tool on asks the user first.',
      permission: 'write',
      // Off narrows what every model may call; on may undo what the user switched off.
      lowRisk: { serverId: 'any', tool: 'any', enabled: [false] },
      risk: 'medium',
      summary: ({ serverId, tool, enabled }) =>
        `Switch ${enabled ? 'on' : 'off'} tool ${quoted(tool)} of server ${quoted(serverId)} for every conversation${enabled ? ' (every model may call it again)' : ''}`,
      inputSchema: {
        serverId: z.string().describe('Server id as list_mcp_servers shows it, e.g. "chatos::filesystem"'),
        tool: z.string().describe('The tool\'s raw name, e.g. "write_file"'),
        enabled: z.boolean().describe('true to switch it on, false to switch it off'),
      },
      async handler({ serverId, tool, enabled }, ctx) {
        const servers = ctx.servers.list();
        const server = servers.find((s) => s.id === serverId);
        if (!server)
          return errorResult(
            `no MCP server "${serverId}"${didYouMean(
              serverId,
              servers.map((s) => s.id),
            )}; list them with list_mcp_servers`,
          );
        const known = server.tools?.map((t) => t.name);
        if (known && !known.includes(tool)) return errorResult(`server "${serverId}" has no tool "${tool}"${didYouMean(tool, known)}`);
        ctx.servers.setToolEnabled(serverId, tool, enabled);
        // A server that never ran has not listed its tools, so the name is taken as given.
        const unchecked = known ? '' : ` (the server has not run yet, so the name "${tool}" could not be checked)`;
        const now = ctx.servers
          .list()
          .find((s) => s.id === serverId)
          ?.tools?.find((t) => t.name === tool);
        if (now && now.enabled !== enabled) {
          return errorResult(`"${tool}" of "${serverId}" is still ${now.enabled ? 'on' : 'off'}: the server's configuration switches it off, which only an edit of that configuration changes`);
        }
        return dataResult(`${enabled ? 'Switched on' : 'Switched off'} "${tool}" of "${serverId}"${unchecked}.`, { serverId, tool, enabled });
      },
    }),
  ],
};
