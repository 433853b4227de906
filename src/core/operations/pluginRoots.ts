import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Problem } from '../../shared/problems.js';
import type { PluginRootView } from '../../shared/roots.js';
import type { PluginHost } from './pluginHost.js';

/**
 * The plugin roots as every face shows and changes them (CLI `chatos roots`,
 * HostApi `roots.*`): one place decides what adding and forgetting a root
 * does to the registry, so the faces cannot drift apart.
 */

export function listPluginRoots(host: PluginHost): { roots: PluginRootView[]; problems: Problem[] } {
  const { problems } = host.rememberedRoots.read();
  const roots = host.pluginRoots.map((root) => ({
    dir: root.dir,
    source: root.source,
    remembered: root.remembered === true,
    exists: fs.statSync(root.dir, { throwIfNoEntry: false })?.isDirectory() ?? false,
  }));
  return { roots, problems };
}

/** Remembers a root and scans it now, so its plugins are registered (untrusted, like any extra root's). */
export async function addPluginRoot(host: PluginHost, dir: string): Promise<{ dir: string; added: boolean; plugins: string[] }> {
  const result = await host.rememberedRoots.add(dir);
  const scan = host.rescan();
  const plugins = scan.plugins.filter((p) => path.dirname(p.dir) === result.dir && p.id).map((p) => p.id!);
  return { ...result, plugins };
}

/**
 * Forgets a remembered root. Its plugins' registrations are marked missing
 * (kept with their grants, not offered): no process will scan that root any
 * more, so none would ever find them gone. A process that still scans it
 * (given with --plugins) registers them again.
 */
export async function removePluginRoot(host: PluginHost, dir: string): Promise<{ dir: string; missing: string[] }> {
  const { dir: folder } = await host.rememberedRoots.remove(dir);
  const stillScanned = host.pluginRoots.some((root) => root.dir === folder);
  const missing = stillScanned
    ? []
    : host.registry.markMissing((row) => row.source.kind === 'plugin' && path.dirname(row.source.pluginDir) === folder, `its plugin root ${folder} is no longer remembered`);
  host.rescan();
  return { dir: folder, missing };
}
