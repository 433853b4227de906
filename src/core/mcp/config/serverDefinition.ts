import { DEFAULT_TOOL_TIMEOUT_MS, type PermissionLevel, type ServerCategory, type ServerDefinition, type ServerTransport } from '../../../shared/mcp.js';
import type { RegistryMcpServer, RegistrySource } from '../../../shared/registry.js';
import { parseCmdUrl } from '../../naming/cmdUrl.js';
import { serverArgsWithHostModules, type HostModules } from '../../plugins/hostModules.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import { checkServerUrl } from './transports.js';

/**
 * Key order never counts; arrays keep their order (args, transforms and
 * first-match permissions mean something in order).
 */
export const canonicalDefinitionJson = canonicalJson;

/** Hot reload restarts only servers whose definition changed; key order never counts as a change. */
export function definitionsEqual(a: ServerDefinition, b: ServerDefinition): boolean {
  return canonicalDefinitionJson(a) === canonicalDefinitionJson(b);
}

/** What a registry row does not carry and the caller knows (the `_meta` to inject, user settings kept elsewhere). */
export interface RegistryDefinitionExtras {
  /** `_meta` for every tools/call (callMeta, chatos.uiApp, workdir); default: the row's callMeta, else {}. */
  meta?: Record<string, unknown>;
  category?: ServerCategory;
  timeoutMs?: number;
  trulyStateless?: boolean;
  permissions?: { pattern: string; level: PermissionLevel }[];
  disabledTools?: string[];
  /** Added to the row's own `enabled: false`: either one disables the server. */
  disabled?: boolean;
  /** Working folder of a stdio server. */
  cwd?: string;
  /** For a plugin's Node server: the hook that offers the host's SDK and zod, as the trust run plan shows it. */
  hostModules?: HostModules;
}

export type DefinitionResult = { ok: true; definition: ServerDefinition } | { ok: false; reason: string };

const ORIGIN_BY_SOURCE: Record<RegistrySource['kind'], ServerDefinition['origin']> = {
  host: 'host',
  'app-db': 'app-db',
  defaults: 'defaults',
  plugin: 'plugin',
  'mcp-yaml': 'mcp.yaml',
  builtin: 'builtin',
};

function transportOf(row: RegistryMcpServer, cwd: string | undefined, hostModules: HostModules | undefined): { ok: true; transport: ServerTransport } | { ok: false; reason: string } {
  if (row.url.startsWith('cmd://')) {
    try {
      const { command, args: declared } = parseCmdUrl(row.url);
      const args = row.source.kind === 'plugin' ? serverArgsWithHostModules(command, declared, hostModules) : declared;
      return { ok: true, transport: { kind: 'stdio', command, args, env: { ...row.env }, ...(cwd === undefined ? {} : { cwd }) } };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }
  const checked = checkServerUrl(row.url);
  if (checked.ok) return { ok: true, transport: { kind: 'streamable_http', url: row.url, headers: {} } };
  return { ok: false, reason: `server "${row.id}" cannot be connected to: ${checked.message}; ${checked.hint}` };
}

/**
 * A registry row (plugin app, provider DB, bundled defaults, the host's own
 * DB) as a definition the runtime can start: `cmd://` urls run over stdio,
 * http(s) urls over streamable HTTP. Names use the default
 * `mcp_<normalize(name)>_<tool>`: only mcp.yaml servers have transforms.
 * A url the runtime cannot use is a result, not a throw, so one bad row
 * does not stop a sync of many.
 */
export function definitionFromRegistry(row: RegistryMcpServer, extras: RegistryDefinitionExtras = {}): DefinitionResult {
  const transport = transportOf(row, extras.cwd, extras.hostModules);
  if (!transport.ok) return transport;
  const source = row.source;
  return {
    ok: true,
    definition: {
      id: row.id,
      name: row.name,
      providerAppId: row.providerAppId,
      origin: ORIGIN_BY_SOURCE[source.kind],
      // Bundled defaults run from the application's own packages: the built-in tools of docs/rules/settings-server.md#categories.
      category: extras.category ?? (source.kind === 'defaults' ? 'builtin' : 'external'),
      transport: transport.transport,
      trulyStateless: extras.trulyStateless ?? row.trulyStateless ?? false,
      tools: { whitelist: [], blacklist: [] },
      transform: [],
      allowMain: row.allowMain,
      allowSub: row.allowSub,
      timeoutMs: extras.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      permissions: extras.permissions ?? row.permissions ?? [],
      disabledTools: extras.disabledTools ?? [],
      disabled: !row.enabled || (extras.disabled ?? false),
      meta: extras.meta ?? row.callMeta ?? {},
      ...(source.kind === 'plugin' ? { plugin: { pluginId: source.pluginId, appId: source.appId, pluginDir: source.pluginDir } } : {}),
    },
  };
}
