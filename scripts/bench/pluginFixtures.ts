import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Writes a synthetic plugin tree shaped like real plugins: every app has an
 * entry module, a stdio MCP entry and zh/en prompt files, so a scan does the
 * same per-file work (stat, realpath, read) it does for a built-in plugin.
 */

export interface FixtureOptions {
  /** Where the plugin folders go (the host's builtin root). */
  pluginsDir: string;
  /** The host's defaults dir; exposure lists go to `<defaultsDir>/ui-apps-expose/`. */
  defaultsDir: string;
  plugins: number;
  appsPerPlugin: number;
  /** How many way-B apps get a bundled default exposure list. */
  withDefaults: number;
}

export interface FixtureApp {
  pluginId: string;
  appId: string;
  /** Absolute folder of its plugin, as the scanner names it (root dir joined with the folder name). */
  pluginDir: string;
  /** Way B: `ai.mcpServers` / `ai.prompts` set to true. */
  wayB: boolean;
  hasDefaults: boolean;
  zhPromptFile: string;
}

// Zero-padded so folder names sort in plugin order, as the scanner sorts them.
const pluginIdOf = (index: number) => `bench.p${String(index).padStart(4, '0')}`;

export function promptText(lang: 'zh' | 'en', pluginId: string, appId: string): string {
  return lang === 'zh' ? `你是 ${pluginId}/${appId} 的助手。请简洁回答。\n` : `You are the assistant of ${pluginId}/${appId}. Answer briefly.\n`;
}

export function writePluginFixtures(options: FixtureOptions): FixtureApp[] {
  const exposeDir = path.join(options.defaultsDir, 'ui-apps-expose');
  fs.mkdirSync(exposeDir, { recursive: true });
  const apps: FixtureApp[] = [];
  let defaultsLeft = options.withDefaults;

  for (let p = 0; p < options.plugins; p++) {
    const pluginId = pluginIdOf(p);
    const pluginDir = path.join(options.pluginsDir, pluginId);
    // Half the plugins (the even ones) declare their apps way B, so both
    // contribution paths, with and without a defaults lookup, are measured.
    const wayB = p % 2 === 0;
    for (const sub of ['app', 'mcp', 'prompts']) fs.mkdirSync(path.join(pluginDir, sub), { recursive: true });

    const manifestApps = [];
    for (let a = 0; a < options.appsPerPlugin; a++) {
      const appId = `app${a}`;
      fs.writeFileSync(path.join(pluginDir, 'app', `${appId}.mjs`), `export default function mount(el) { el.textContent = '${pluginId}/${appId}'; }\n`);
      fs.writeFileSync(path.join(pluginDir, 'mcp', `${appId}.mjs`), `// stdio MCP server of ${pluginId}/${appId} (never started by the benchmark)\n`);
      const zhPromptFile = path.join(pluginDir, 'prompts', `${appId}.zh.md`);
      fs.writeFileSync(zhPromptFile, promptText('zh', pluginId, appId));
      fs.writeFileSync(path.join(pluginDir, 'prompts', `${appId}.en.md`), promptText('en', pluginId, appId));

      const hasDefaults = wayB && defaultsLeft > 0;
      if (hasDefaults) {
        defaultsLeft--;
        fs.writeFileSync(path.join(exposeDir, `${pluginId}__${appId}.yaml`), 'mcpServers:\n  - project_files\nprompts:\n  - default\n');
      }
      manifestApps.push({
        id: appId,
        name: `App ${a} of plugin ${p}`,
        entry: { type: 'module', path: `app/${appId}.mjs` },
        ai: {
          mcp: { entry: `mcp/${appId}.mjs`, command: 'node', description: `server of ${appId}`, tags: ['bench'] },
          mcpPrompt: { title: appId, zh: `prompts/${appId}.zh.md`, en: `prompts/${appId}.en.md` },
          ...(wayB ? { mcpServers: true, prompts: true } : {}),
        },
      });
      apps.push({ pluginId, appId, pluginDir, wayB, hasDefaults, zhPromptFile });
    }
    const manifest = { manifestVersion: 1, id: pluginId, name: `Bench plugin ${p}`, version: '1.0.0', apps: manifestApps };
    fs.writeFileSync(path.join(pluginDir, 'plugin.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return apps;
}

/**
 * The floor any scan has to pay: list the root, read and JSON.parse every
 * plugin.json, nothing else. Measured on the same files as the scan, so
 * cold/baseline says how much validation and contribution add, independent
 * of how fast this machine's disk and CPU are. Lives here, away from the
 * host, so a fresh process can run it without loading the host's modules.
 */
export function readAllManifests(pluginsDir: string): number {
  let parsed = 0;
  for (const name of fs.readdirSync(pluginsDir)) {
    if (JSON.parse(fs.readFileSync(path.join(pluginsDir, name, 'plugin.json'), 'utf8'))) parsed++;
  }
  return parsed;
}
