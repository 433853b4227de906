import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseCmdUrl } from '../../src/core/naming/cmdUrl.js';
import { HostMcpServers, HostPrompts } from '../../src/core/registry/registryTables.js';
import { defineTable } from '../../src/core/store/logicalTable.js';
import { RecordsStore } from '../../src/core/store/recordsStore.js';
import { CREATE_RECORDS_TABLE } from '../../src/core/store/recordsSchema.js';
import { loadSqlJs } from '../../src/core/store/sqlite.js';
import { connectStdio } from '../helpers/mcpClient.js';
import { writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { stressSize } from '../helpers/stress.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/** The world of docs/rules/registry.md#isolation: a data home, and plugins for vcs_app and vm_app that declare their provider (git_app and wsl are the built-in Git and WSL apps'). */
function world() {
  const home = tempDir();
  const extra = tempDir();
  writeProviderPlugin(extra, 'com.example.git', 'vcs_app', ['status']);
  writeProviderPlugin(extra, 'com.example.wsl', 'vm_app', ['distros']);
  const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', extra]);
  return { home, extra, cli };
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe('registry acceptance (docs/rules/registry.md#bootstrap)', () => {
  it('holds aide (from bundled defaults), git_app and wsl (from the built-in plugins), vcs_app and vm_app (from plugins), with no grants', async () => {
    const { cli } = world();
    const run = await cli('registry', '--json');
    expect(run.code).toBe(0);
    const doc = run.json();
    expect(doc.apps.map((a: { appId: string }) => a.appId)).toEqual(expect.arrayContaining(['chatos', 'aide', 'vcs_app', 'vm_app', 'git_app', 'wsl']));
    expect(ids(doc.servers)).toEqual(
      expect.arrayContaining(['aide::project_files', 'aide::memory', 'vcs_app::com.example.git.status', 'vm_app::com.example.wsl.distros', 'git_app::chatos.git.git', 'wsl::chatos.wsl.wsl']),
    );
    expect(ids(doc.prompts)).toEqual(
      expect.arrayContaining(['aide::default', 'vcs_app::mcp_com_example_git_status', 'vcs_app::mcp_com_example_git_status__en', 'git_app::mcp_chatos_git_git', 'wsl::mcp_chatos_wsl_wsl']),
    );
    expect(doc.servers.find((s: { id: string }) => s.id === 'aide::project_files').source.kind).toBe('defaults');
    expect(doc.grants).toEqual({ servers: [], prompts: [] });
  });

  it('aide sees none of vcs_app or vm_app until granted, exactly the granted server after, and nothing after revoke', async () => {
    const { cli } = world();
    const aideSees = async () => ids((await cli('registry', 'servers', '--for', 'aide', '--json')).json().servers);
    expect(await aideSees()).toEqual(['aide::memory', 'aide::project_files']);

    const grant = await cli('grant', 'aide', 'vcs_app::com.example.git.status');
    expect(grant.code).toBe(0);
    expect(grant.stdout).toContain('granted server vcs_app::com.example.git.status to aide');
    expect(await aideSees()).toEqual(['aide::memory', 'aide::project_files', 'vcs_app::com.example.git.status']);
    expect((await cli('registry', 'grants', '--json')).json().grants.servers).toEqual([expect.objectContaining({ appId: 'aide', targetId: 'vcs_app::com.example.git.status' })]);

    expect((await cli('revoke', 'aide', 'vcs_app::com.example.git.status')).code).toBe(0);
    expect(await aideSees()).toEqual(['aide::memory', 'aide::project_files']);
  });

  it('refuses unknown ids and apps with close matches, exit 1', async () => {
    const { cli } = world();
    const badId = await cli('grant', 'aide', 'vcs_app::com.example.git.stats');
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain('did you mean "vcs_app::com.example.git.status"');
    const badApp = await cli('grant', 'aid', 'vcs_app::com.example.git.status');
    expect(badApp.code).toBe(1);
    expect(badApp.stderr).toContain('did you mean "aide"');
    expect((await cli('revoke', 'aide', 'vcs_app::nothing')).code).toBe(1);
    expect((await cli('registry', 'servers', '--for', 'nobody')).code).toBe(1);
    expect((await cli('registry', 'everything')).code).toBe(2);
  });

  it('reads aide from its own DB when present, instead of the bundled defaults', async () => {
    const { home, cli } = world();
    const store = await RecordsStore.open(path.join(home, 'aide', 'admin.db'));
    store.put(HostMcpServers, 'x1', { id: 'x1', name: 'task_manager', url: 'cmd://node /opt/aide/tasks.js', env: {}, tags: [], allowMain: true, allowSub: true, enabled: true });
    store.put(HostPrompts, 'p1', { id: 'p1', name: 'internal_main', content: 'be AIDE' });
    await store.close();
    const doc = (await cli('registry', '--json')).json();
    const aideServers = doc.servers.filter((s: { providerAppId: string }) => s.providerAppId === 'aide');
    expect(ids(aideServers)).toEqual(['aide::task_manager']);
    expect(aideServers[0].source).toEqual({ kind: 'app-db', file: path.join(home, 'aide', 'admin.db') });
    expect(ids(doc.prompts.filter((p: { providerAppId: string }) => p.providerAppId === 'aide'))).toEqual(['aide::internal_main']);
  });

  it('reads a provider DB written with the records table of docs/rules/registry.md#storage and no user_version of ours, without calling it corrupt', async () => {
    const { home, cli } = world();
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run(CREATE_RECORDS_TABLE);
    const row = { id: 'x1', name: 'task_manager', url: 'cmd://node /opt/aide/tasks.js', env: {}, tags: [], allowMain: true, allowSub: true, enabled: true };
    db.run('INSERT INTO records VALUES (?, ?, ?, ?, ?)', ['mcpServers', 'x1', JSON.stringify(row), '2026-01-11T00:00:00Z', '2026-01-11T00:00:00Z']);
    fs.mkdirSync(path.join(home, 'aide'), { recursive: true });
    const file = path.join(home, 'aide', 'admin.db');
    fs.writeFileSync(file, db.export());
    db.close();
    const bytes = fs.readFileSync(file);

    const run = await cli('registry', '--json');
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('DB_CORRUPT');
    expect(run.json().problems).toEqual([]);
    expect(ids(run.json().servers.filter((s: { providerAppId: string }) => s.providerAppId === 'aide'))).toEqual(['aide::task_manager']);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true); // read, never written or moved
    expect(fs.readdirSync(path.join(home, 'aide'))).toEqual(['admin.db']);
  });

  it("an unreadable provider DB falls back to that provider's bundled defaults, with a problem", async () => {
    const { home, cli } = world();
    fs.mkdirSync(path.join(home, 'aide'), { recursive: true });
    fs.writeFileSync(path.join(home, 'aide', 'admin.db'), 'this is not a database\n'.repeat(100));
    const run = await cli('registry', '--json');
    expect(run.code).toBe(0);
    const aide = run.json().servers.filter((s: { providerAppId: string }) => s.providerAppId === 'aide');
    expect(ids(aide)).toEqual(['aide::memory', 'aide::project_files']);
    expect(aide[0].source.kind).toBe('defaults');
    const codes = run.json().problems.map((p: { code: string }) => p.code);
    expect(codes).toEqual(expect.arrayContaining(['DB_CORRUPT_READ_ONLY', 'PROVIDER_DB_UNREADABLE']));
    expect(run.stderr).toContain("aide's DB cannot be read, so its bundled defaults are registered instead");
  });

  it('reports every row that fails its schema, whatever its table, on stderr and in --json', async () => {
    const { home, cli } = world();
    expect((await cli('grant', 'aide', 'vcs_app::com.example.git.status')).code).toBe(0);
    const store = await RecordsStore.open(path.join(home, 'chatos', 'admin.db'));
    store.put(defineTable('mcpServerGrants', z.unknown()), 'aide=>broken', { appId: 'aide' });
    store.put(defineTable('agents', z.unknown()), 'half', { name: 42 });
    await store.close();

    const run = await cli('registry', '--json');
    expect(run.code).toBe(0);
    const invalid = run.json().problems.filter((p: { code: string }) => p.code === 'RECORD_INVALID');
    expect(invalid.map((p: { path: string }) => p.path).sort()).toEqual(['agents.half.id', 'mcpServerGrants["aide=>broken"].targetId']);
    expect(invalid[0].message).toMatch(/^row (agents\/half|mcpServerGrants\/aide=>broken) is skipped: /);
    expect(run.stderr).toContain('row agents/half is skipped');
    // The good rows still count.
    expect(run.json().grants.servers.map((g: { targetId: string }) => g.targetId)).toEqual(['vcs_app::com.example.git.status']);
  });

  // CHATOS_STRESS=1: the full 20 processes; a default run starts 8, the same race on the admin DB.
  const GRANTS = stressSize(20, 8);
  it(`${GRANTS} grant processes started at once leave ${GRANTS} grants`, async () => {
    const home = tempDir();
    const extra = tempDir();
    const apps = Array.from({ length: GRANTS }, (_, i) => `tool${i}`);
    writeProviderPlugin(extra, 'com.example.many', 'vcs_app', apps);
    expect((await runCli(['registry', 'apps', '--home', home, '--plugins', extra])).code).toBe(0);
    const bin = path.join(repoRoot, 'bin', 'chatos.js');
    const runs = await Promise.all(
      apps.map(
        (app) =>
          new Promise<{ code: number | null; stderr: string }>((resolve) => {
            const child = spawn(process.execPath, [bin, 'grant', 'aide', `vcs_app::com.example.many.${app}`, '--home', home, '--plugins', extra], { stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr!.on('data', (chunk) => (stderr += chunk));
            child.on('close', (code) => resolve({ code, stderr }));
          }),
      ),
    );
    expect(
      runs.map((run) => run.code),
      runs.map((run) => run.stderr).join(''),
    ).toEqual(apps.map(() => 0));
    const grants = (await runCli(['registry', 'grants', '--for', 'aide', '--json', '--home', home, '--plugins', extra])).json().grants.servers;
    expect(grants).toHaveLength(GRANTS);
  }, 300_000);
});

describe("aide's bundled servers", () => {
  it('actually start: project_files and memory answer tools/list over stdio', async () => {
    const { cli, home } = world();
    const servers = (await cli('registry', 'servers', '--json')).json().servers as { id: string; url: string; env: Record<string, string> }[];
    for (const id of ['aide::project_files', 'aide::memory']) {
      const server = servers.find((s) => s.id === id)!;
      expect(server.url.startsWith(`cmd://node ${repoRoot}`)).toBe(true);
      const { command, args } = parseCmdUrl(server.url);
      const client = await connectStdio(command === 'node' ? process.execPath : command, args, server.env);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        expect(tools).toContain(id === 'aide::memory' ? 'create_entities' : 'read_text_file');
      } finally {
        await client.close();
      }
    }
    expect(servers.find((s) => s.id === 'aide::memory')!.env.MEMORY_FILE_PATH).toBe(path.join(home, 'aide', 'memory.jsonl'));
  });
});
