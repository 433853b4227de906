import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { findAppRoot } from '../../core/facades/setup.js';
import { PluginIdSchema } from '../../core/facades/plugins.js';
import { globalOptions } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext } from '../output.js';

/** A plugin id from a folder name: `My Tools` → `my-tools`. */
export function idFromFolderName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+|-+$/g, '') || 'my-plugin'
  );
}

function copyTemplate(from: string, to: string, vars: Record<string, string>, written: string[]): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true });
      copyTemplate(source, target, vars, written);
    } else {
      let text = fs.readFileSync(source, 'utf8');
      for (const [key, value] of Object.entries(vars)) text = text.split(key).join(value);
      fs.writeFileSync(target, text, { mode: fs.statSync(source).mode });
      written.push(target);
    }
  }
}

export async function init(cli: CliContext, dir: string, opts: { id?: string; name?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const folder = path.resolve(dir);
  const id = opts.id ?? idFromFolderName(path.basename(folder));
  const checked = PluginIdSchema.safeParse(id);
  if (!checked.success) throw new UsageError(`--id "${id}" ${checked.error.issues[0]?.message ?? 'is not a valid plugin id'}`);
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) {
    throw new UserError(`${folder} already exists and is not empty`, 'choose a new folder name');
  }
  fs.mkdirSync(folder, { recursive: true });
  const written: string[] = [];
  const name = opts.name ?? id;
  // JSON-escape the display name: it is substituted into plugin.json and JS string literals.
  const jsonSafeName = JSON.stringify(name).slice(1, -1);
  copyTemplate(path.join(findAppRoot(), 'templates', 'plugin'), folder, { __PLUGIN_ID__: id, __PLUGIN_NAME__: jsonSafeName }, written);
  if (options.json) {
    printJson(io, { dir: folder, id, files: written.map((f) => path.relative(folder, f)).sort() });
  } else {
    io.out(`created plugin "${id}" in ${folder}`);
    // The exact folder: a parent given to --plugins would scan every folder beside it as a plugin.
    io.out(`next: chatos dev ${folder}   (links it where it is: trusted once, reloaded on every edit; chatos validate ${folder} checks it first)`);
  }
  cli.exitCode = 0;
}
