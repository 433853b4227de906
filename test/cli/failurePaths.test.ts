import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin, writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/** The CLI when the world says no: a data home it may not write, a full disk, a reader that stops reading. */

const bin = path.join(repoRoot, 'bin', 'chatos.js');
const GIT_SERVER = 'vcs_app::com.example.git.main';
const NOBODY = 65534;

async function world() {
  const home = tempDir();
  const root = tempDir('chatos-root-');
  writeProviderPlugin(root, 'com.example.git', 'vcs_app');
  const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', root]);
  // A writing command: the admin DB exists, with the plugin registered.
  expect((await cli('untrust', 'nothing')).code).toBe(0);
  return { home, root, cli };
}

/** A stack trace has lines like "    at withFileLock (file:///…)"; a user must never see one for a failure they can fix. */
const STACK_LINE = /^\s+at .+\(.*:\d+:\d+\)$/m;

/** Whether every folder above the checkout lets other users through (a clone under /root, mode 0700, does not). */
function checkoutReachableByOthers(): boolean {
  for (let dir = path.dirname(repoRoot); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return false;
    if (dir === path.dirname(dir)) return true;
  }
}

/**
 * The CLI run as `nobody`. A checkout nobody cannot reach (a folder above it
 * is 0700, as /root is) is bound, in a mount namespace of this run alone,
 * onto a temp folder nobody can reach, and the CLI runs from there: the
 * test then checks the data home, not where the clone happens to live.
 */
function spawnAsNobody(args: string[], env: NodeJS.ProcessEnv) {
  if (checkoutReachableByOthers()) return spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: 'utf8', env, uid: NOBODY, gid: NOBODY });
  const view = tempDir('chatos-checkout-');
  fs.chmodSync(view, 0o755);
  const script = 'mount --bind "$1" "$2" || exit 97; cd "$2" || exit 97; shift 2; exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"';
  const run = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', repoRoot, view, process.execPath, path.join(view, 'bin', 'chatos.js'), ...args], {
    cwd: view,
    encoding: 'utf8',
    env,
  });
  if (run.status === 97 || run.error)
    throw new Error(
      `nobody cannot reach the checkout at ${repoRoot} and binding it elsewhere failed (${run.stderr || run.error}); run the tests where unshare and mount work as root, or from a checkout other users may reach`,
    );
  return run;
}

/**
 * Runs the CLI as a user who may read the data home but not write it. Tests
 * run as root in CI, where a chmod stops nobody, so the command runs as
 * `nobody` there; elsewhere the home's folder is made read-only.
 */
function runWithReadOnlyHome(home: string, root: string, args: string[]) {
  const chatosDir = path.join(home, 'chatos');
  const asRoot = process.getuid?.() === 0;
  for (const dir of [home, chatosDir, root, ...fs.readdirSync(root).map((name) => path.join(root, name))]) fs.chmodSync(dir, 0o755);
  // Readable by that user, as a read-only home is: the DB is written 0600 by its owner.
  for (const name of fs.readdirSync(chatosDir)) fs.chmodSync(path.join(chatosDir, name), 0o644);
  if (!asRoot) fs.chmodSync(chatosDir, 0o555);
  const cliArgs = [...args, '--home', home, '--plugins', root];
  const env = { ...process.env, HOME: home };
  try {
    return asRoot ? spawnAsNobody(cliArgs, env) : spawnSync(process.execPath, [bin, ...cliArgs], { cwd: repoRoot, encoding: 'utf8', env });
  } finally {
    fs.chmodSync(chatosDir, 0o755);
  }
}

describe('a write that does not reach the disk is a failure, said before anything says success', () => {
  it('with a read-only data home, grant exits 1 without saying "granted", with no stack trace, and nothing is granted', async () => {
    const { home, root, cli } = await world();
    const run = runWithReadOnlyHome(home, root, ['grant', 'aide', GIT_SERVER]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: could not save to .*admin\.db: .*; the change was not saved\n {4}fix: make the data home writable/);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect((await cli('registry', 'grants', '--json')).json().grants.servers).toEqual([]);

    const json = runWithReadOnlyHome(home, root, ['grant', 'aide', GIT_SERVER, '--json']);
    expect(json.status).toBe(1);
    expect(json.stdout).toBe(''); // no "outcome": "created"
  });

  it('with a read-only data home, trust and agents create fail the same way and leave nothing behind', async () => {
    const { home, root, cli } = await world();
    const trust = runWithReadOnlyHome(home, root, ['trust', 'com.example.git']);
    expect(trust.status).toBe(1);
    expect(trust.stdout).toBe('');
    expect(trust.stderr).toContain('the change was not saved');
    expect((await cli('apps', '--json')).json().plugins.find((p: { id: string }) => p.id === 'com.example.git').trust.state).toBe('untrusted');

    const agentFile = path.join(tempDir(), 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'a', name: 'A', uiApps: [] }));
    fs.chmodSync(path.dirname(agentFile), 0o755);
    fs.chmodSync(agentFile, 0o644);
    const agent = runWithReadOnlyHome(home, root, ['agents', 'create', '--file', agentFile]);
    expect(agent.status).toBe(1);
    expect(agent.stdout).toBe('');
    expect((await cli('agents', 'list', '--json')).json().agents).toEqual([]);
  });

  it('on a full disk (a small tmpfs), grant exits 1 naming ENOSPC, and the grant is not there', () => {
    const mountPoint = path.join(tempDir(), 'tmpfs');
    const out = tempDir('chatos-diskfull-out-');
    fs.mkdirSync(mountPoint);
    const root = tempDir('chatos-root-');
    writeProviderPlugin(root, 'com.example.git', 'vcs_app');
    const node = process.execPath;
    // Everything inside one shell: with unshare, the mount lives only as long as the namespace.
    const script = [
      'set -u',
      `mount -t tmpfs -o size=1m tmpfs "$1" || exit 97`,
      `"${node}" "${bin}" untrust nothing --home "$1/home" --plugins "${root}" > "${out}/setup.out" 2>&1; echo $? > "${out}/setup.code"`,
      `dd if=/dev/zero of="$1/filler" bs=4096 > /dev/null 2>&1`,
      `"${node}" "${bin}" grant aide ${GIT_SERVER} --home "$1/home" --plugins "${root}" > "${out}/grant.out" 2> "${out}/grant.err"; echo $? > "${out}/grant.code"`,
      `rm -f "$1/filler"`,
      `"${node}" "${bin}" registry grants --json --home "$1/home" --plugins "${root}" > "${out}/after.out" 2>&1`,
      `umount "$1"`,
    ].join('\n');
    const asRoot = process.getuid?.() === 0;
    const run = asRoot ? spawnSync('sh', ['-c', script, 'sh', mountPoint], { encoding: 'utf8' }) : spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', mountPoint], { encoding: 'utf8' });
    if (run.status === 97 || run.error)
      throw new Error(`cannot mount a tmpfs for the disk-full test (${run.stderr || run.error}); run the tests as root or where unprivileged user namespaces are allowed`);
    const read = (name: string) => fs.readFileSync(path.join(out, name), 'utf8');
    expect(read('setup.code').trim(), read('setup.out')).toBe('0');
    expect(read('grant.code').trim()).toBe('1');
    expect(read('grant.out')).toBe('');
    expect(read('grant.err')).toMatch(/^error: could not save to .*admin\.db: .*ENOSPC.*; the change was not saved/);
    expect(read('grant.err')).not.toMatch(STACK_LINE);
    expect(JSON.parse(read('after.out')).grants.servers).toEqual([]);
  }, 300_000);
});

describe('a reader that stops reading (chatos … | head -1)', () => {
  it('ends the command quietly after its work is saved: trust with 500 KB of output, the pipe closed after the first chunk', async () => {
    const home = tempDir();
    // A deep root and long argument lists make each of 150 server lines about 3.8 KB: far more than a pipe holds
    // (64 KB), so the command is still writing when the reader leaves, while plugin.json stays under its size limit.
    const root = path.join(tempDir('chatos-root-'), ...Array.from({ length: 14 }, (_, i) => `${i}${'d'.repeat(199)}`));
    fs.mkdirSync(root, { recursive: true });
    const args = Array.from({ length: 10 }, (_, i) => `--option-${i}=${'x'.repeat(90)}`);
    const apps = Array.from({ length: 150 }, (_, i) => ({ id: `app${i}`, name: `App ${i}`, entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', args } } }));
    writePlugin(root, 'big', { manifestVersion: 1, id: 'com.example.big', name: 'Big', version: '1.0.0', apps }, { 'index.mjs': 'export function mount() {}\n', 'server.mjs': '// server\n' });

    const child = spawn(process.execPath, [bin, 'trust', 'com.example.big', '--home', home, '--plugins', root], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let chunks = 0;
    child.stdout.on('data', () => {
      chunks++;
      child.stdout.destroy(); // the reading end goes away, as head does after its line
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(chunks).toBe(1);
    expect(stderr).toBe('');
    expect(code).toBe(0);

    const apps2 = await runCli(['apps', '--json', '--home', home, '--plugins', root]);
    expect(apps2.json().plugins.find((p: { id: string }) => p.id === 'com.example.big').trust.state).toBe('trusted');
  }, 300_000);
});
