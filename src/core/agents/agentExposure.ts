import { isHostUiApp, type AgentUiApp } from '../../shared/agents.js';
import type { AppContribution } from '../../shared/appContribution.js';
import type { RegistrySource } from '../../shared/registry.js';
import type { Exposure } from '../contributions/exposure.js';
import { HOST_APP_ID } from '../dataHome.js';
import { registryId } from '../registry/registryTables.js';

/**
 * Way B (docs/rules/names-and-exposure.md#exposure): what an app exposes of existing servers and prompts
 * (`exposure.mcpServers` / `exposure.prompts`: off, all, or a list) bounds
 * what an agent may select under that app. The agent editor offers only
 * that, but agents are also made through the CLI, the API and the settings
 * server, so the core checks it: the store refuses an agent that selects
 * outside it, and the resolver leaves out what a stored agent selects
 * outside it now (the app's exposure may have changed since).
 *
 * An app's own server and prompts (way A) are always its to offer. A list
 * names registry ids (`aide::memory`) or bare names (`memory`, any
 * provider's); a prompt pair counts as one (`x` and `x__en`).
 *
 * One rule for every entry: under an app, only what that app exposes. An
 * app that is not installed (its plugin removed, or an id that names none)
 * exposes nothing at all: nothing selected under it is offered, and saving
 * such a selection is refused, whatever provider the id names, so nothing
 * widens through a missing app. The user's own registrations (mcp.yaml and
 * built-in servers, their own prompts: ids `chatos::…`) are picked in their
 * own group, the host's entry (docs/rules/agents.md#your-own-servers), and
 * under an installed app only when it exposes them.
 */

export type ExposureKind = 'mcpServers' | 'prompts';

export interface ExposureViolation {
  /** Where in the agent: `['uiApps', i, 'mcpServerIds', j]`. */
  at: (string | number)[];
  id: string;
  message: string;
  hint: string;
}

const EN_SUFFIX = '__en';
const pairBase = (name: string) => (name.endsWith(EN_SUFFIX) ? name.slice(0, -EN_SUFFIX.length) : name);

/** The name part of a registry id (`<providerAppId>::<name>`: provider ids hold no ':'). */
function nameOf(id: string): string {
  const at = id.indexOf('::');
  return at < 0 ? id : id.slice(at + 2);
}

function listed(exposure: Exposure, kind: ExposureKind, id: string): boolean {
  if (exposure.mode !== 'list') return exposure.mode === 'all';
  const same = kind === 'prompts' ? (a: string, b: string) => pairBase(a) === pairBase(b) : (a: string, b: string) => a === b;
  return exposure.names.some((name) => (name.includes('::') ? same(name, id) : same(name, nameOf(id))));
}

/** The app's own server or prompts (way A), by registry id. */
function ownIds(app: AppContribution, kind: ExposureKind): string[] {
  if (kind === 'mcpServers') return app.mcp ? [registryId(app.providerAppId, app.serverName)] : [];
  return [registryId(app.providerAppId, app.promptNames.zh), registryId(app.providerAppId, app.promptNames.en)];
}

function describe(exposure: Exposure): string {
  if (exposure.mode === 'off') return 'it exposes none';
  if (exposure.mode === 'all') return 'it exposes all';
  return exposure.names.length ? `it exposes only ${exposure.names.map((n) => `"${n}"`).join(', ')}` : 'its list is empty';
}

/** Why an id may not be selected under this app, or undefined when it may. */
export function exposureRefusal(app: AppContribution, kind: ExposureKind, id: string): { message: string; hint: string } | undefined {
  if (ownIds(app, kind).includes(id)) return undefined;
  const { exposure } = app.exposure[kind];
  if (listed(exposure, kind, id)) return undefined;
  const what = kind === 'mcpServers' ? 'server' : 'prompt';
  return {
    message: `${what} "${id}" is not exposed by app "${app.appId}" of plugin "${app.pluginId}": ${describe(exposure)} (its ai.${kind})`,
    hint: `select one of the ${what}s the app exposes (chatos apps shows its exposure), or add the ${what} under an app that exposes it`,
  };
}

/**
 * Why an id may not be selected under an app that is not installed: it
 * exposes nothing, so every id is refused, the user's own (`chatos::…`)
 * too; those belong under the host's entry.
 */
export function missingAppRefusal(uiApp: Pick<AgentUiApp, 'pluginId' | 'appId'>, kind: ExposureKind, id: string): { message: string; hint: string } {
  const what = kind === 'mcpServers' ? 'server' : 'prompt';
  return {
    message: `${what} "${id}" is not offered: app "${uiApp.appId}" of plugin "${uiApp.pluginId}" is not installed, so it exposes nothing`,
    hint: `install the plugin (chatos install DIR), or select the ${what} under an installed app that exposes it (chatos apps shows each app's exposure); your own ${what}s ("${HOST_APP_ID}::…") go under ChatOS's own entry ({ "pluginId": "${HOST_APP_ID}", "appId": "${HOST_APP_ID}" })`,
  };
}

/** Where what the host registers under its own name comes from: the user's servers and prompts, and its built-in servers; never a plugin's. */
const HOST_OWN_SOURCES = new Set<RegistrySource['kind']>(['mcp-yaml', 'host', 'builtin']);

/**
 * Whether a registration is the host's own, selectable under the host's
 * entry (docs/rules/agents.md#your-own-servers). Without its row (the store's
 * check at save), only the registry id's provider is known; the resolver
 * passes the row and checks where it came from too.
 */
export function isHostOwn(id: string, row?: { providerAppId: string; source: RegistrySource }): boolean {
  if (!id.startsWith(`${HOST_APP_ID}::`)) return false;
  return row === undefined || (row.providerAppId === HOST_APP_ID && HOST_OWN_SOURCES.has(row.source.kind));
}

/** Why an id may not be selected under the host's own entry, or undefined when it may. */
export function hostEntryRefusal(kind: ExposureKind, id: string, row?: { providerAppId: string; source: RegistrySource }): { message: string; hint: string } | undefined {
  if (isHostOwn(id, row)) return undefined;
  const what = kind === 'mcpServers' ? 'server' : 'prompt';
  return {
    message: `${what} "${id}" is not one of your own (ChatOS's entry offers the ${what}s you added and its built-in ones, "${HOST_APP_ID}::…")`,
    hint: `select it under the app that brings it, or pick one of your own ${what}s (chatos registry ${kind === 'mcpServers' ? 'servers' : 'prompts'})`,
  };
}

/**
 * Every selected id of `uiApps` outside what its app exposes: the host's own
 * entry offers only the host's own; an app not installed exposes nothing.
 */
export function exposureViolations(uiApps: readonly AgentUiApp[], appOf: (pluginId: string, appId: string) => AppContribution | undefined): ExposureViolation[] {
  const violations: ExposureViolation[] = [];
  uiApps.forEach((uiApp, i) => {
    const app = appOf(uiApp.pluginId, uiApp.appId);
    const hostEntry = !app && isHostUiApp(uiApp);
    const check = (kind: ExposureKind, field: 'mcpServerIds' | 'promptIds', ids: readonly string[]) =>
      ids.forEach((id, j) => {
        const refusal = app ? exposureRefusal(app, kind, id) : hostEntry ? hostEntryRefusal(kind, id) : missingAppRefusal(uiApp, kind, id);
        if (refusal) violations.push({ at: ['uiApps', i, field, j], id, ...refusal });
      });
    check('mcpServers', 'mcpServerIds', uiApp.mcpServerIds);
    check('prompts', 'promptIds', uiApp.promptIds);
  });
  return violations;
}
