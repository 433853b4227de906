import type { AppContribution, PluginRecord } from '../shared/appContribution.js';
import { refusalText, type PluginsFacade } from '../core/facades/plugins.js';
import { contentTypeOf, fileInside, urlPathSegments } from './safePath.js';

export { uiAppShellCsp, uiAppShellHtml } from './uiAppShell.js';

/** What the page files need from the host: its catalog and its run gate (a started host's `plugins` is one). */
export interface UiAppSource {
  readonly catalog: { readonly apps: readonly AppContribution[]; readonly plugins: readonly PluginRecord[] };
  readonly runGate: Pick<PluginsFacade['runGate'], 'check'>;
}

/** Why a page or file is not served: 404 when there is nothing to show, 403 when the plugin may not run. */
export interface UiAppRefusal {
  ok: false;
  status: 403 | 404;
  message: string;
}

export type UiAppLookup = { ok: true; app: AppContribution; plugin: PluginRecord } | UiAppRefusal;
export type UiAppFile = { ok: true; file: string; contentType: string } | UiAppRefusal;

/**
 * The app (pluginId, appId) when its pages may be shown: its plugin is
 * loaded and runnable (built in, or trusted with its current content).
 * Checked on every request, so untrusting a plugin, or editing a trusted
 * one, stops its pages at once.
 */
export function findRunnableApp(source: UiAppSource, pluginId: string, appId: string): UiAppLookup {
  const app = source.catalog.apps.find((a) => a.pluginId === pluginId && a.appId === appId);
  if (!app) return { ok: false, status: 404, message: `no app "${appId}" in plugin "${pluginId}"; list apps with: chatos apps` };
  const allowed = source.runGate.check({ pluginId, pluginDir: app.pluginDir }, 'pages');
  if (!allowed.ok) return { ok: false, status: 403, message: refusalText(allowed) };
  const plugin = source.catalog.plugins.find((p) => p.dir === app.pluginDir)!;
  return { ok: true, app, plugin };
}

/** The page module of a surface (absolute path), or undefined when the app has no compact page. */
export function uiAppEntry(app: AppContribution, surface: 'full' | 'compact'): string | undefined {
  return surface === 'full' ? app.entry.path : app.entry.compactPath;
}

/**
 * A file of app (pluginId, appId) by its url path relative to the app's
 * base (still percent-encoded): only a regular file inside the plugin's
 * folder once symlinks are resolved, never a dotfile, and only while the
 * plugin may run. Every refusal of a path is the same 404, so a page cannot
 * probe what exists outside its folder.
 */
export function resolveUiAppFile(source: UiAppSource, pluginId: string, appId: string, encodedPath: string): UiAppFile {
  const found = findRunnableApp(source, pluginId, appId);
  if (!found.ok) return found;
  const segments = urlPathSegments(encodedPath);
  const file = segments && fileInside(found.app.pluginDir, segments);
  if (!file) return { ok: false, status: 404, message: `no such file in plugin ${pluginId}` };
  return { ok: true, file, contentType: contentTypeOf(file) };
}
