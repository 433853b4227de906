import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes a plugin folder: its plugin.json and any other files (parent folders made as needed). */
export function writePlugin(root: string, folder: string, manifest: object, files: Record<string, string> = {}): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(manifest, null, 2));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/**
 * A plugin whose apps each bring a stdio server and a zh/en prompt, owned by
 * `providerAppId` (docs/rules/registry.md#provider-app-ids: git_app, wsl). Server files are empty: these
 * tests never start them.
 */
export function writeProviderPlugin(root: string, id: string, providerAppId: string | undefined, appIds: string[] = ['main']): string {
  const files: Record<string, string> = {};
  const apps = appIds.map((appId) => {
    files[`${appId}/index.mjs`] = 'export function mount() {}\n';
    files[`${appId}/server.mjs`] = '// server\n';
    files[`${appId}/zh.md`] = `${appId} 的提示`;
    files[`${appId}/en.md`] = `${appId} prompt`;
    return {
      id: appId,
      name: appId,
      entry: `${appId}/index.mjs`,
      ai: { mcp: { entry: `${appId}/server.mjs`, allowMain: true }, mcpPrompt: { zh: `${appId}/zh.md`, en: `${appId}/en.md` } },
    };
  });
  return writePlugin(root, id, { manifestVersion: 1, id, name: id, version: '1.0.0', ...(providerAppId ? { providerAppId } : {}), apps }, files);
}

/** A plugin folder with `count` small files under node_modules (as an unbundled server's dependencies would be), in folders of 1,000. */
export function writeHugePlugin(root: string, id: string, count: number): string {
  const dir = writePlugin(root, id, { manifestVersion: 1, id, name: id, version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] }, { 'index.mjs': 'export function mount() {}\n' });
  for (let folder = 0; folder * 1000 < count; folder++) {
    const sub = path.join(dir, 'node_modules', `pkg${folder}`);
    fs.mkdirSync(sub, { recursive: true });
    for (let i = folder * 1000; i < Math.min(count, (folder + 1) * 1000); i++) fs.writeFileSync(path.join(sub, `f${i}.js`), '');
  }
  return dir;
}

export type ZipEntry = { name: string; text?: string; symlinkTo?: string };

/** Builds a zip with python3's zipfile, which lets a test write any entry name, links included. */
export function makeZip(file: string, entries: ZipEntry[]): void {
  const script = `
import json, sys, zipfile
entries = json.loads(sys.stdin.read())
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for e in entries:
        if e.get('symlinkTo') is not None:
            info = zipfile.ZipInfo(e['name'])
            info.create_system = 3
            info.external_attr = (0o120777 << 16)
            z.writestr(info, e['symlinkTo'])
        else:
            z.writestr(e['name'], e.get('text', ''))
`;
  const result = spawnSync('python3', ['-c', script, file], { input: JSON.stringify(entries), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`making ${file} failed: ${result.stderr}`);
}
