import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProviderPlugin } from '../helpers/plugins.js';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Several processes share one data home, each with its own plugin roots and
 * environment. The commands that write (and `tools`, which starts servers in
 * its environment) run the real CLI as separate processes, as a user does
 * beside a running host. The commands that only read what they wrote run in
 * this process (runCli): what they show is what is on disk, not the process,
 * and a process of their own cost ~0.5 s of CPU each (seconds on a busy
 * 2-core machine), most of this file's time. That they write nothing is the
 * last test's.
 */

const GIT_SERVER = 'vcs_app::com.example.git.main';

function world() {
  const home = tempDir();
  const rootA = tempDir('chatos-root-a-');
  const rootB = tempDir('chatos-root-b-');
  const gitDir = writeProviderPlugin(rootA, 'com.example.git', 'vcs_app');
  writeProviderPlugin(rootB, 'com.example.other', 'other_app');
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCliProcess([...args, '--home', home], { env });
  const read = (args: string[]) => runCli([...args, '--home', home]);
  return { home, rootA, rootB, gitDir, cli, read };
}

/**
 * Every file under the data home with its identity and content, so any write
 * shows. `chatos/run/` is left out: a command that starts servers (`tools`)
 * records their pids there while they run, so a crash cannot orphan them.
 */
function snapshot(home: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(home, full);
      if (rel === path.join('chatos', 'run')) continue;
      if (entry.isDirectory()) {
        files[`${rel}/`] = 'dir';
        walk(full);
        continue;
      }
      const stat = fs.statSync(full, { bigint: true });
      files[rel] = `${stat.ino}:${stat.mtimeNs}:${stat.size}:${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
    }
  };
  walk(home);
  return files;
}

async function grantsTo(read: ReturnType<typeof world>['read'], app: string): Promise<string[]> {
  const run = await read(['registry', 'grants', '--for', app, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run.json().grants.servers.map((g: { targetId: string }) => g.targetId);
}

// Each test runs up to ten CLI processes one after the other: on a loaded machine that is more than the default 30 s.
describe('one process never deletes what another registered', { timeout: 120_000 }, () => {
  it('a grant on a plugin of another root survives commands run without that root, and the registration stays offered', async () => {
    const { cli, read, rootA, rootB } = world();
    expect(cli(['grant', 'aide', GIT_SERVER, '--plugins', rootA]).code).toBe(0);
    // Read-only and writing commands alike, none of them scanning root A.
    for (const args of [
      ['registry', 'grants'],
      ['registry', '--plugins', rootB],
      ['apps'],
      ['untrust', 'com.example.other', '--plugins', rootB],
      ['revoke', 'aide', 'aide::memory'],
      ['agents', 'list'],
    ]) {
      if (args[0] === 'untrust' || args[0] === 'revoke') cli(args);
      else await read(args);
    }
    expect(await grantsTo(read, 'aide')).toEqual([GIT_SERVER]);
    const aideSees = (await read(['registry', 'servers', '--for', 'aide', '--json'])).json().servers;
    expect(aideSees.find((s: { id: string }) => s.id === GIT_SERVER)).toMatchObject({ source: { kind: 'plugin', pluginId: 'com.example.git' } });
    expect(aideSees.find((s: { id: string }) => s.id === GIT_SERVER).missing).toBeUndefined();
    expect((await read(['registry', 'apps', '--json'])).json().apps.map((a: { appId: string }) => a.appId)).toContain('vcs_app');
  });

  it("an mcp.yaml server whose {env: NAME} is unset in a command's environment stays registered, with its grant", async () => {
    const { cli, read, home } = world();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'version: 1\nservers:\n  github:\n    command: node\n    args: ["server.mjs"]\n    env:\n      TOKEN: { env: CHATOS_TEST_TOKEN }\n');
    const withToken = { CHATOS_TEST_TOKEN: 'secret' };
    expect(cli(['grant', 'aide', 'chatos::github'], withToken).code).toBe(0);
    // Without the variable: a warning naming it, nothing unregistered.
    const without = cli(['untrust', 'nothing'], { CHATOS_TEST_TOKEN: undefined });
    expect(without.code).toBe(0);
    // Read in this process, which has no such variable either.
    expect(process.env.CHATOS_TEST_TOKEN).toBeUndefined();
    const registry = await read(['registry', '--json']);
    expect(registry.json().servers.find((s: { id: string }) => s.id === 'chatos::github')).toMatchObject({ source: { kind: 'mcp-yaml' }, env: {} });
    expect(registry.json().servers.find((s: { id: string }) => s.id === 'chatos::github').missing).toBeUndefined();
    expect(await grantsTo(read, 'aide')).toEqual(['chatos::github']);
    // A start in that process fails, naming the variable.
    const tools = cli(['tools', '--app', 'aide', '--json'], { CHATOS_TEST_TOKEN: undefined });
    expect(JSON.stringify(tools.json().problems)).toContain('CHATOS_TEST_TOKEN');
  });

  it('a plugin gone from a root this process scanned is kept, marked missing, not offered, with its grant; prune lists it and removes it with --yes', async () => {
    const { cli, read, rootA, gitDir } = world();
    expect(cli(['grant', 'aide', GIT_SERVER, '--plugins', rootA]).code).toBe(0);
    fs.rmSync(gitDir, { recursive: true });
    expect(cli(['untrust', 'nothing', '--plugins', rootA]).code).toBe(0); // a writing command that scans root A

    const registry = await read(['registry', '--json']);
    const row = registry.json().servers.find((s: { id: string }) => s.id === GIT_SERVER);
    expect(row.missing.reason).toBe(`plugin com.example.git (app main) is no longer in ${rootA}`);
    expect(registry.json().problems).toContainEqual(expect.objectContaining({ code: 'REGISTRATION_MISSING', severity: 'warning' }));
    expect(registry.stderr).toContain(`server "${GIT_SERVER}" is missing`);
    expect(await grantsTo(read, 'aide')).toEqual([GIT_SERVER]);
    expect((await read(['registry', 'servers', '--for', 'aide', '--json'])).json().servers.map((s: { id: string }) => s.id)).not.toContain(GIT_SERVER);
    expect((await read(['registry', 'servers'])).stdout).toContain(`${GIT_SERVER}  cmd://node ${path.join(gitDir, 'main', 'server.mjs')}  (missing: plugin com.example.git`);

    const dry = await read(['registry', 'prune']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('would remove (run again with --yes to remove):');
    expect(dry.stdout).toContain(`server ${GIT_SERVER}: plugin com.example.git (app main) is no longer in ${rootA}; with its grant to aide`);
    expect(await grantsTo(read, 'aide')).toEqual([GIT_SERVER]);

    const pruned = cli(['registry', 'prune', '--yes', '--json']);
    expect(pruned.code).toBe(0);
    expect(pruned.json()).toMatchObject({
      applied: true,
      registrations: expect.arrayContaining([expect.objectContaining({ kind: 'server', id: GIT_SERVER, grants: [expect.objectContaining({ appId: 'aide' })] })]),
      apps: ['vcs_app'],
    });
    expect(await grantsTo(read, 'aide')).toEqual([]);
    expect((await read(['registry', 'servers', '--json'])).json().servers.map((s: { id: string }) => s.id)).not.toContain(GIT_SERVER);
    expect((await read(['registry', 'prune'])).stdout).toContain('nothing to prune');
  });

  it("a process that does not scan a plugin's root says so, and how to scan it, instead of calling the plugin uninstalled", async () => {
    const { cli, read, rootA, gitDir } = world();
    expect(cli(['trust', 'com.example.git', '--plugins', rootA]).code).toBe(0);
    expect(cli(['grant', 'aide', GIT_SERVER, '--plugins', rootA]).code).toBe(0);

    // Without root A: the registration is there (another process scans it), but this process cannot start it.
    const problems: { code: string; file: string }[] = cli(['tools', '--app', 'aide', '--json']).json().problems;
    expect(problems.find((p) => p.file === GIT_SERVER)).toMatchObject({
      code: 'PLUGIN_NOT_SCANNED',
      message: `plugin com.example.git is in ${rootA}, which is not among the plugin roots this process scans, so its server does not run here: its tools are not offered`,
      hint: `remember that root for every process: chatos roots add ${rootA} (or scan it for this run only: --plugins ${rootA})`,
    });
    expect((await read(['registry', 'servers'])).stdout).toContain(
      `${GIT_SERVER}  cmd://node ${path.join(gitDir, 'main', 'server.mjs')}  [plugin root not scanned by this process: offered to no one]`,
    );

    // The fix it names works: with the root remembered, the gate lets the server start (this one is not a real server, so it fails there).
    expect(cli(['roots', 'add', rootA]).code).toBe(0);
    const after: { code: string; file: string }[] = cli(['tools', '--app', 'aide', '--json']).json().problems;
    expect(after.filter((p) => p.file === GIT_SERVER).map((p) => p.code)).not.toContain('PLUGIN_NOT_SCANNED');
    expect((await read(['registry', 'servers'])).stdout).not.toContain('offered to no one');
  });

  it('a plugin that comes back is offered again with the grant it had', async () => {
    const { cli, read, rootA, gitDir } = world();
    expect(cli(['grant', 'aide', GIT_SERVER, '--plugins', rootA]).code).toBe(0);
    const away = path.join(tempDir(), 'away');
    fs.renameSync(gitDir, away);
    cli(['untrust', 'nothing', '--plugins', rootA]);
    expect((await read(['registry', 'servers', '--for', 'aide', '--json'])).json().servers.map((s: { id: string }) => s.id)).not.toContain(GIT_SERVER);
    fs.renameSync(away, gitDir);
    cli(['untrust', 'nothing', '--plugins', rootA]);
    expect((await read(['registry', 'servers', '--for', 'aide', '--json'])).json().servers.map((s: { id: string }) => s.id)).toContain(GIT_SERVER);
  });
});

describe('read-only commands write nothing to the data home', () => {
  it('registry, apps, tools, agents list/show, audit, validate and a prune without --yes leave every file as it was', async () => {
    const { cli, home, rootA, rootB, gitDir } = world();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'version: 1\nservers:\n  github:\n    command: node\n    env:\n      TOKEN: { env: CHATOS_TEST_TOKEN }\n');
    expect(cli(['grant', 'aide', GIT_SERVER, '--plugins', rootA], { CHATOS_TEST_TOKEN: 'x' }).code).toBe(0);
    const agentFile = path.join(tempDir(), 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'keeper', name: 'Keeper', uiApps: [{ pluginId: 'chatos.notes', appId: 'notes', mcp: true }] }));
    expect(cli(['agents', 'create', '--file', agentFile]).code).toBe(0);
    // The plugin leaves root A: a writing command scanning root A would now mark it missing.
    fs.rmSync(gitDir, { recursive: true });

    const before = snapshot(home);
    expect(Object.keys(before)).toContain(path.join('chatos', 'admin.db'));
    const reads = [
      ['registry'],
      ['registry', 'grants', '--json'],
      ['registry', 'servers', '--for', 'aide'],
      ['registry', 'prune'],
      ['apps', '--json'],
      ['tools', '--agent', 'keeper'],
      ['agents', 'list'],
      ['agents', 'show', 'keeper'],
      ['audit'],
      ['validate', path.join(rootB, 'com.example.other')],
    ];
    // The reads run in this process (runCli): what is tested is what they write, not the process; a process of
    // their own cost ~0.5 s of CPU each, twenty times. Without the variable, as the processes above ran them.
    expect(process.env.CHATOS_TEST_TOKEN).toBeUndefined();
    for (const args of reads) {
      for (const plugins of [
        ['--plugins', rootA],
        ['--plugins', rootB],
      ]) {
        const run = await runCli([...args, ...plugins, '--home', home]);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expect(snapshot(home), `chatos ${[...args, ...plugins].join(' ')} changed the data home`).toEqual(before);
      }
    }
  }, 300_000);
});
