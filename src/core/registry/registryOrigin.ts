import type { RegistrySource } from '../../shared/registry.js';

/**
 * Who may write a registry id: one plugin (by its id, whichever folder it is
 * in now), or its provider app itself (its DB, bundled defaults, the host's
 * lists, what it pushes). An id is never taken over by another origin: the
 * grants on it were given to what it named (docs/rules/registry.md#ids).
 */
export function originOf(source: RegistrySource): string {
  if (source.kind !== 'plugin') return 'app';
  // What a page pushes is its plugin's too, but it may not overwrite what plugin.json declares (nor the reverse).
  return source.pushed ? `plugin:${source.pluginId}:pushed` : `plugin:${source.pluginId}`;
}

/** The origin of a row, as the user reads it in a refusal. */
export function describeSource(source: RegistrySource): string {
  switch (source.kind) {
    case 'plugin':
      return `${source.pushed ? 'what ' : ''}plugin "${source.pluginId}" (app ${source.appId}, ${source.pluginDir})${source.pushed ? ' registered through the host API' : ''}`;
    case 'app-db':
      return `its app's own database ${source.file}`;
    case 'defaults':
    case 'mcp-yaml':
      return source.file;
    case 'host':
      return "the host's own lists";
    case 'builtin':
      return 'the host (built in)';
  }
}
