import { ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerDefinition } from '../../../shared/mcp.js';
import type { Problem, ProblemSeverity } from '../../../shared/problems.js';
import { formatJsonPath } from '../../../shared/problemText.js';
import { describeDrop, filterTool } from './toolFilter.js';
import { ToolUiSchema, type ToolUi } from '../../../shared/mcpApps.js';
import { toolUiOf } from './toolUi.js';
import { shortenIdsHint } from '../../naming/toolNameRoom.js';
import { isValidToolName, toolNameFor } from '../../naming/toolNaming.js';

/**
 * The tools offered to a model, from the tools each server listed: filtered
 * (white/blacklist on the raw name), minus the ones the user switched off,
 * named, checked against the provider-safe name rule, and made unique. Every
 * tool left out is a problem saying why, so a missing tool is never a
 * mystery. Schemas pass through unchanged (docs/rules/chat.md#tools-sent-to-a-model): a provider that
 * dislikes one says so itself.
 */

export const CatalogToolSchema = ToolSchema.pick({ inputSchema: true, outputSchema: true, annotations: true }).extend({
  /** The name the model sees and calls. */
  name: z.string(),
  /** The name the server knows the tool by. */
  rawName: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  description: z.string(),
  /** Its MCP App view and visibility (docs/rules/mcp-apps.md#tools-with-a-view), when it declares either. */
  ui: ToolUiSchema.optional(),
});
export type CatalogTool = z.infer<typeof CatalogToolSchema>;

export interface CatalogEntry {
  server: ServerDefinition;
  tools: readonly Tool[];
}

export interface CatalogResult {
  tools: CatalogTool[];
  problems: Problem[];
}

export interface CatalogOptions {
  /**
   * The `file` of a problem about this server: where the user goes to fix
   * it. Default: the server id (a registry server has no file of its own).
   * Use `fileOfServer(mcpYamlPath)` to point mcp.yaml servers at their file.
   */
  fileOf?: (server: ServerDefinition) => string;
  /**
   * Which server holds a name (docs/rules/mcp-yaml.md#tool-names-and-transforms): the host passes the
   * server that offered it first and still does, so a server that had a name
   * keeps it whatever another lists later. A tool of any other server that
   * would get the name is refused, whether or not the holder is among
   * `entries` (a name never means one server to one caller and another to
   * the next). Names no one holds yet go by `entries` order, as do a
   * server's own two tools and reserved names.
   */
  holderOf?: (name: string) => { server: Pick<ServerDefinition, 'id' | 'name'>; rawName: string } | undefined;
}

/** mcp.yaml servers' problems name that file; every other server's name its id. */
export function fileOfServer(mcpConfigFile: string): (server: ServerDefinition) => string {
  return (server) => (server.origin === 'mcp.yaml' ? mcpConfigFile : server.id);
}

const serverLabel = (server: Pick<ServerDefinition, 'id' | 'name'>) => (server.name === server.id ? `"${server.id}"` : `"${server.name}" (${server.id})`);

/** A tool that passed the filters and the name rule, waiting for the collision check. */
interface Named {
  server: ServerDefinition;
  tool: Tool;
  name: string;
  /** Reports a problem about this tool's server. */
  report: (severity: ProblemSeverity, code: string, path: string, message: string, hint: string) => void;
  pathOf: (...field: string[]) => string;
  about: string;
}

/**
 * `reserved`: names already taken (the host's own tools, e.g. `mcp_release`).
 * On a collision the name goes to: reserved names first, then the server
 * `holderOf` names, else the earlier server in `entries`, then each server's
 * tools in the order it listed them. Tools are offered in `entries` order
 * either way.
 */
export function buildCatalog(entries: readonly CatalogEntry[], reserved: readonly string[], options: CatalogOptions = {}): CatalogResult {
  const fileOf = options.fileOf ?? ((server: ServerDefinition) => server.id);
  const problems: Problem[] = [];
  const named: Named[] = [];

  for (const { server, tools: listed } of entries) {
    // A path into mcp.yaml means something only for mcp.yaml servers.
    const pathOf = (...field: string[]) => (server.origin === 'mcp.yaml' ? formatJsonPath(['servers', server.name, ...field]) : '');
    const report = (severity: ProblemSeverity, code: string, path: string, message: string, hint: string) => problems.push({ severity, code, file: fileOf(server), path, message, hint });

    if (server.disabled) {
      // The runtime should not list a disabled server's tools at all; if it did, still offer none.
      if (listed.length)
        report('notice', 'SERVER_DISABLED', pathOf('disabled'), `server ${serverLabel(server)} is disabled; its ${listed.length} tool(s) are not offered`, 'enable the server to offer its tools');
      continue;
    }
    const disabled = new Set(server.disabledTools);
    // A plugin's server is known to the user by its app: problems say which, and how to fix its ids.
    const ofApp = server.plugin ? ` (app "${server.plugin.appId}" of plugin "${server.plugin.pluginId}")` : '';

    for (const tool of listed) {
      const about = `tool "${tool.name}" of server ${serverLabel(server)}${ofApp}`;
      const verdict = filterTool(server.tools, tool.name);
      if (!verdict.kept) {
        const list = verdict.reason === 'blacklisted' ? 'blacklist' : 'whitelist';
        report(
          'warning',
          'TOOL_FILTERED',
          pathOf('tools', list),
          `${about} is not offered: ${describeDrop(verdict, server.tools)}`,
          verdict.reason === 'blacklisted' ? `add a whitelist pattern matching "${tool.name}" to offer it` : `add a whitelist pattern matching "${tool.name}" to offer it, or remove the whitelist`,
        );
        continue;
      }
      if (disabled.has(tool.name)) {
        // Notice, not warning: the user switched it off on purpose.
        report('notice', 'TOOL_DISABLED', pathOf('disabledTools'), `${about} is switched off`, `remove "${tool.name}" from the server's disabled tools to offer it again`);
        continue;
      }
      const naming = toolNameFor(server, tool.name);
      if (!naming.ok) {
        const rawIsBad = !isValidToolName(tool.name);
        report(
          'warning',
          'TOOL_NAME_INVALID',
          pathOf(rawIsBad || !server.transform.length ? 'tools' : 'transform'),
          `${about} is not offered: ${naming.reason}`,
          rawIsBad
            ? `the server has to rename it; add "${tool.name}" to tools.blacklist to hide this warning`
            : server.transform.length
              ? 'change the transform so names stay within 64 ASCII letters, digits, "_" or "-"'
              : server.plugin
                ? shortenIdsHint(server.plugin.pluginId, server.plugin.appId)
                : 'give the server a shorter name, or (in mcp.yaml) a transform such as "- prefix: \'short_\'"',
        );
        continue;
      }
      named.push({ server, tool, name: naming.name, report, pathOf, about });
    }
  }

  const owners = ownersOf(named, reserved, options.holderOf);
  const tools: CatalogTool[] = [];
  for (const candidate of named) {
    const { server, tool, name } = candidate;
    const owner = owners.get(name)!;
    if (owner !== candidate) {
      const holder = owner === RESERVED ? 'a tool of the host' : `tool "${ownerTool(owner)}" of server ${serverLabel(owner.server)}`;
      candidate.report(
        'warning',
        'TOOL_NAME_COLLISION',
        candidate.pathOf(server.transform.length ? 'transform' : 'tools'),
        `${candidate.about} is not offered: its name "${name}" is already taken by ${holder}`,
        'give one of the two servers a transform that sets its names apart, or blacklist one of the two tools',
      );
      continue;
    }
    tools.push({
      name,
      rawName: tool.name,
      serverId: server.id,
      serverName: server.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      ...withUi(tool),
    });
  }
  return { tools, problems };
}

function withUi(tool: Tool): { ui?: ToolUi } {
  const ui = toolUiOf(tool);
  return ui ? { ui } : {};
}

const RESERVED = Symbol('reserved');

/** A holder that is not among this catalog's servers (the caller may not see it): named in the problem, offered nothing here. */
interface Absent {
  server: Pick<ServerDefinition, 'id' | 'name'>;
  rawName: string;
}

type Owner = Named | Absent | typeof RESERVED;

const ownerTool = (owner: Named | Absent) => ('tool' in owner ? owner.tool.name : owner.rawName);

/** Who keeps each name: a reserved name the host; else its holder (a server's first tool of that name); else the first candidate in order. */
function ownersOf(named: readonly Named[], reserved: readonly string[], holderOf: CatalogOptions['holderOf']): Map<string, Owner> {
  const owners = new Map<string, Owner>(reserved.map((name) => [name, RESERVED]));
  for (const candidate of named) {
    if (owners.has(candidate.name)) continue;
    const holder = holderOf?.(candidate.name);
    if (!holder || holder.server.id === candidate.server.id) owners.set(candidate.name, candidate);
    else owners.set(candidate.name, named.find((other) => other.name === candidate.name && other.server.id === holder.server.id) ?? holder);
  }
  return owners;
}
