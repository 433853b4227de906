import { isMap, type Document, type YAMLMap } from 'yaml';
import { BuiltinToolChangeSchema, BuiltinToolNameSchema, type BuiltinToolName, type BuiltinToolView } from '../../../shared/builtinTools.js';
import { BUILTIN_TOOLS } from '../../builtinTools/builtinToolServers.js';
import type { Logger } from '../../ports.js';
import { HOST_APP_ID } from '../../dataHome.js';
import { registryId } from '../../registry/registryTables.js';
import type { BuiltinSettings } from '../config/builtinSettings.js';
import type { McpConfigLoad } from '../config/mcpConfigLoader.js';
import { McpAdminError } from './mcpAdminError.js';
import { McpYamlFile } from './mcpYamlFile.js';

/**
 * The built-in tools' switches (docs/using/mcp-servers.md#built-in-tools),
 * as the Built-in tab, `chatos mcp builtin` and the API change them: one
 * checked edit of mcp.yaml's `builtins:` block (comments and order kept),
 * then a reload, which registers a tool switched on and removes one
 * switched off. Other processes of this data home see it through their
 * watchers of the file.
 */

export interface BuiltinToolAdminDeps {
  configFile: string;
  hostEnv: NodeJS.ProcessEnv;
  logger: Logger;
  reload(): Promise<unknown>;
}

export class BuiltinToolAdmin {
  private readonly file: McpYamlFile;

  constructor(private readonly deps: BuiltinToolAdminDeps) {
    this.file = new McpYamlFile(deps.configFile, deps.hostEnv, deps.logger);
  }

  /** Every built-in tool with its switch as mcp.yaml has it now. */
  list(): BuiltinToolView[] {
    const { load } = this.file.read();
    const { settings, servers } = settingsOf(load);
    return BUILTIN_TOOLS.map((tool) => viewOf(tool.name, settings, servers));
  }

  /** Switches a built-in tool on or off (and, for fetch, private addresses); answers its view after the reload. */
  async set(name: string, change: unknown): Promise<BuiltinToolView> {
    const tool = parseName(name);
    const parsed = BuiltinToolChangeSchema.safeParse(change);
    if (!parsed.success) {
      throw new McpAdminError(
        'MCP_SERVER_INVALID',
        `the change to built-in tool "${tool}" is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(change)'} ${i.message}`).join('; ')}`,
        'send { enabled: true|false } (fetch also takes allowPrivateAddresses)',
      );
    }
    const { enabled, allowPrivateAddresses } = parsed.data;
    if (allowPrivateAddresses !== undefined && tool !== 'fetch') {
      throw new McpAdminError('MCP_SERVER_INVALID', `built-in tool "${tool}" has no allowPrivateAddresses setting`, 'only fetch reaches the network; leave allowPrivateAddresses out', [
        { path: 'allowPrivateAddresses', message: 'only for fetch' },
      ]);
    }
    await this.file.edit({
      change: (doc, current) => {
        if (enabled === true && current.servers.has(tool)) throw nameTaken(tool, this.deps.configFile);
        const entry = builtinEntry(doc, tool);
        if (enabled !== undefined) entry.set('enabled', enabled);
        if (allowPrivateAddresses !== undefined) entry.set('allowPrivateAddresses', allowPrivateAddresses);
        return { touched: [], result: undefined };
      },
    });
    await this.deps.reload();
    return this.list().find((view) => view.name === tool)!;
  }
}

function parseName(name: string): BuiltinToolName {
  const parsed = BuiltinToolNameSchema.safeParse(name);
  if (parsed.success) return parsed.data;
  throw new McpAdminError('MCP_BUILTIN_UNKNOWN', `no built-in tool "${name}"`, `use one of: ${BUILTIN_TOOLS.map((t) => t.name).join(', ')}`);
}

function nameTaken(tool: BuiltinToolName, file: string): McpAdminError {
  return new McpAdminError(
    'MCP_BUILTIN_NAME_TAKEN',
    `your server "${tool}" in ${file} has the name of the built-in tool "${tool}", so the built-in one cannot be switched on`,
    `remove or rename server "${tool}" (chatos mcp remove ${tool}, or on the MCP servers page), then switch the built-in one on: it needs no uv, npx or node`,
  );
}

/** `builtins.<tool>` as a map, made (or made a map again, if it was written as something else) as needed. */
function builtinEntry(doc: Document.Parsed, tool: BuiltinToolName): YAMLMap {
  const written = doc.get('builtins', true);
  let block: YAMLMap;
  if (isMap(written)) block = written;
  else {
    block = doc.createNode({}) as YAMLMap;
    doc.set('builtins', block);
  }
  const current = block.get(tool, true);
  if (isMap(current)) return current;
  const entry = doc.createNode({ enabled: false }) as YAMLMap;
  block.set(tool, entry);
  return entry;
}

function settingsOf(load: Exclude<McpConfigLoad, { kind: 'missing' }>): { settings: BuiltinSettings; servers: ReadonlySet<string> } {
  if (load.kind === 'rejected') return { settings: {}, servers: new Set() };
  return { settings: load.builtins, servers: new Set(load.servers.keys()) };
}

function viewOf(name: BuiltinToolName, settings: BuiltinSettings, servers: ReadonlySet<string>): BuiltinToolView {
  const tool = BUILTIN_TOOLS.find((t) => t.name === name)!;
  const enabled = settings[name]?.enabled === true;
  return {
    name,
    serverId: registryId(HOST_APP_ID, name),
    title: tool.title,
    description: tool.description,
    tools: [...tool.tools],
    enabled,
    ...(name === 'fetch' ? { allowPrivateAddresses: settings.fetch?.allowPrivateAddresses === true } : {}),
    ...(enabled && servers.has(name) ? { blockedBy: `your server "${name}" in mcp.yaml has this name; rename or remove it to use the built-in one` } : {}),
  };
}
