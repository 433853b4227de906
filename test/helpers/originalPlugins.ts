import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './tempDir.js';

/** A plugin written for the original ChatOS, as its author shipped it: where it is, its id, its app, and the raw name of its greeting tool. */
export interface OriginalPlugin {
  label: string;
  dir: string;
  pluginId: string;
  appId: string;
}

/**
 * Our own plugin in the original ChatOS style (test/fixtures/plugins/original-api),
 * and, when `CHATOS_ORIGINAL_TEMPLATE` names a folder, the original's public
 * template itself (leeoohoo/nova_dreamer_rebuild, chatos/ui_apps/template/basic-plugin,
 * MIT), copied there unmodified. Its code is not kept in this repository.
 */
export function originalPlugins(): OriginalPlugin[] {
  const plugins: OriginalPlugin[] = [{ label: 'original-api fixture', dir: path.join(repoRoot, 'test', 'fixtures', 'plugins', 'original-api'), pluginId: 'com.example.original.api', appId: 'hello' }];
  const template = process.env.CHATOS_ORIGINAL_TEMPLATE;
  if (template) {
    if (!fs.existsSync(path.join(template, 'plugin.json'))) throw new Error(`CHATOS_ORIGINAL_TEMPLATE=${template} has no plugin.json`);
    plugins.push({ label: 'original basic-plugin template', dir: template, pluginId: 'com.example.aideui.template', appId: 'hello-module' });
  }
  return plugins;
}
