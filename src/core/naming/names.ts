/**
 * Name derivation (docs/rules/names-and-exposure.md#derived-names). Pure functions: the host, the CLI and the
 * registry must all derive exactly the same names from the same manifest.
 */

/** Lower-case, replace anything outside [a-z0-9_-] with `_`, trim `_` at both ends. */
export function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '_')
    .replace(/^_+|_+$/g, '');
}

export function deriveServerName(pluginId: string, appId: string): string {
  return `${pluginId}.${appId}`;
}

export interface PromptNames {
  zh: string;
  en: string;
}

export function derivePromptNames(serverName: string): PromptNames {
  const base = `mcp_${normalizeName(serverName)}`;
  return { zh: base, en: `${base}__en` };
}

/** What every default tool name of a server starts with: `mcp_<normalize(server)>_`. */
export function defaultToolPrefix(serverName: string): string {
  return `mcp_${normalizeName(serverName)}_`;
}

/** Default tool name exposed to a model (docs/rules/names-and-exposure.md#derived-names): `mcp_<normalize(server)>_<tool>`. */
export function deriveToolName(serverName: string, toolName: string): string {
  return `${defaultToolPrefix(serverName)}${toolName}`;
}

/**
 * Base file name (no extension) of an app's default exposure list (docs/rules/names-and-exposure.md#exposure):
 * `<pluginId>__<appId>`, lower-cased, characters outside [a-z0-9._-] replaced by `_`.
 */
export function exposeDefaultsBaseName(pluginId: string, appId: string): string {
  return `${pluginId}__${appId}`.toLowerCase().replace(/[^a-z0-9._-]/g, '_');
}
