import * as fs from 'node:fs';
import { confirm, onAsked } from '../../helpers/questions.js';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../../src/core/host.js';
import { textOf } from '../../helpers/gatewayHost.js';
import { callGit, gitHost, gitIn, makeRepo } from '../../helpers/gitApp.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * The Git app on a folder someone else wrote (an unpacked archive, a shared
 * folder, what another tool made), through its real MCP server and the real
 * `git`. The folder's own git config names programs at every turn a tool
 * takes: filters, gpg, drivers, hooks, an fsmonitor, a partial clone's
 * transport. Each program is a script that leaves a marker when it runs;
 * the tests check that no marker appears, and that the tools still answer.
 * And a folder whose git data lies outside the workspace folders (a .git
 * file, a bare repository's core.worktree, a linked worktree's commondir,
 * links in the git dir, alternates) is refused with a message naming the
 * place, before git reads or writes it.
 */

/** Scripts that each leave a marker named after themselves; a filter passes its input through, anything else fails. */
function hostilePrograms() {
  const dir = tempDir('chatos-git-programs-');
  const markers = path.join(dir, 'ran');
  fs.mkdirSync(markers);
  const program = (name: string, { filter = false, file = path.join(dir, name) } = {}) => {
    fs.writeFileSync(file, `#!/bin/sh\necho "$*" >> '${path.join(markers, name)}'\n${filter ? 'exec cat' : 'exit 1'}\n`, { mode: 0o755 });
    return file;
  };
  return { program, ran: () => fs.readdirSync(markers).sort() };
}

/** A commit on HEAD carrying a signature header, as `git commit -S` would write it (the signature itself is never checked by anything but the program). */
function commitSigned(repo: string, kind: 'PGP SIGNATURE' | 'SIGNED MESSAGE', subject: string): void {
  const tree = gitIn(repo, 'rev-parse', 'HEAD^{tree}').trim();
  const parent = gitIn(repo, 'rev-parse', 'HEAD').trim();
  const who = 'Tester <tester@example.com> 1700000000 +0000';
  const text = `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\ngpgsig -----BEGIN ${kind}-----\n \n AAAA\n -----END ${kind}-----\n\n${subject}\n`;
  const file = path.join(tempDir('chatos-git-commit-'), 'commit');
  fs.writeFileSync(file, text);
  const commit = gitIn(repo, 'hash-object', '-t', 'commit', '-w', file).trim();
  gitIn(repo, 'update-ref', 'HEAD', commit);
}

/** Makes the files look changed to git (another modification time), so that status and diff hash them again, through their filter. */
function touch(repo: string, ...files: string[]): void {
  for (const file of files) fs.utimesSync(path.join(repo, file), 1_000_000_000, 1_000_000_000);
}

/** Calls a tool, asserts that no program ran and that the tool still answered. */
async function callClean(host: Host, ran: () => string[], tool: string, args: Record<string, unknown>): Promise<string> {
  const result = await callGit(host, tool, args);
  expect(ran(), `programs the repository's config names ran on ${tool}`).toEqual([]);
  expect(result.isError, textOf(result)).toBeFalsy();
  return textOf(result);
}

/**
 * A repository in a root whose config names a program at every turn: clean,
 * smudge and process filters (one of them required), a diff driver and
 * textconv, an fsmonitor, hooks, and (in a file its config includes) gpg
 * for signed commits in the log and for signing a commit. Its tracked
 * data.txt and more.p go through the filters. `before` runs first, while the
 * test's own git may still do anything; from then on it runs only git
 * commands that run none of the config.
 */
async function hostileRepo(before: (repo: string) => void = () => {}) {
  const { program, ran } = hostilePrograms();
  const repo = makeRepo();
  fs.writeFileSync(path.join(repo, '.gitattributes'), 'data.txt filter=evil diff=evil\nmore.p filter=proc\n');
  fs.writeFileSync(path.join(repo, 'data.txt'), 'data\n');
  fs.writeFileSync(path.join(repo, 'more.p'), 'more\n');
  gitIn(repo, 'add', '.gitattributes', 'data.txt', 'more.p');
  gitIn(repo, 'commit', '--quiet', '-m', 'add data');
  commitSigned(repo, 'PGP SIGNATURE', 'signed with gpg');
  commitSigned(repo, 'SIGNED MESSAGE', 'signed with x509');
  before(repo);

  const hooks = path.join(repo, '.git', 'evil-hooks');
  fs.mkdirSync(hooks);
  for (const hook of ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'post-checkout', 'post-index-change', 'reference-transaction'])
    program(`hook-${hook}`, { file: path.join(hooks, hook) });
  const config: [string, string][] = [
    ['filter.evil.clean', program('filter.evil.clean', { filter: true })],
    ['filter.evil.smudge', program('filter.evil.smudge', { filter: true })],
    ['filter.evil.required', 'true'],
    ['filter.proc.process', program('filter.proc.process')],
    ['diff.evil.command', program('diff.evil.command')],
    ['diff.evil.textconv', program('diff.evil.textconv')],
    ['core.fsmonitor', program('core.fsmonitor')],
    ['core.hooksPath', hooks],
    // Keys in a file the config includes are the folder's too.
    ['include.path', '../hostile.gitconfig'],
  ];
  for (const [key, value] of config) gitIn(repo, 'config', key, value);
  const included: [string, string][] = [
    ['log.showSignature', 'true'],
    ['gpg.program', program('gpg.program')],
    ['gpg.x509.program', program('gpg.x509.program')],
    ['commit.gpgSign', 'true'],
  ];
  for (const [key, value] of included) gitIn(repo, 'config', '--file', path.join(repo, 'hostile.gitconfig'), key, value);
  const host = await gitHost([path.dirname(repo)]);
  return { repo, host, ran };
}

describe("the Git app runs no program a repository's own config names", () => {
  it('status', async () => {
    const { repo, host, ran } = await hostileRepo();
    touch(repo, 'data.txt', 'more.p');
    fs.appendFileSync(path.join(repo, 'README.md'), 'changed\n');
    const status = await callClean(host, ran, 'status', { repo });
    expect(status).toContain('README.md');
    expect(status).not.toContain('data.txt');
  });

  it('diff, unstaged and staged', async () => {
    const { repo, host, ran } = await hostileRepo((repo) => {
      fs.writeFileSync(path.join(repo, 'more.p'), 'more and more\n');
      gitIn(repo, 'add', 'more.p');
    });
    touch(repo, 'data.txt', 'more.p');
    fs.appendFileSync(path.join(repo, 'README.md'), 'changed\n');
    expect(await callClean(host, ran, 'diff', { repo })).toContain('+changed');
    expect(await callClean(host, ran, 'diff', { repo, staged: true })).toContain('+more and more');
  });

  it('log, with signed commits in it', async () => {
    const { repo, host, ran } = await hostileRepo();
    const log = await callClean(host, ran, 'log', { repo });
    expect(log).toContain('signed with gpg');
    expect(log).toContain('signed with x509');
  });

  it('stage', async () => {
    const { repo, host, ran } = await hostileRepo();
    fs.writeFileSync(path.join(repo, 'data.txt'), 'new data\n');
    fs.writeFileSync(path.join(repo, 'more.p'), 'more and more\n');
    await callClean(host, ran, 'stage', { repo, paths: ['data.txt', 'more.p'] });
    expect(gitIn(repo, 'cat-file', 'blob', ':data.txt')).toBe('new data\n');
  });

  it('commit, unsigned', async () => {
    const { repo, host, ran } = await hostileRepo((repo) => {
      fs.writeFileSync(path.join(repo, 'README.md'), 'to commit\n');
      gitIn(repo, 'add', 'README.md');
    });
    await callClean(host, ran, 'commit', { repo, message: 'Change the readme' });
    const head = gitIn(repo, 'cat-file', 'commit', 'HEAD');
    expect(head).toContain('Change the readme');
    expect(head).not.toContain('gpgsig');
  });

  it('discard, which writes a file back from the index', async () => {
    const { repo, host, ran } = await hostileRepo();
    onAsked(host, 'toolConfirmation', (request) => void confirm(host, request.id, true));
    fs.writeFileSync(path.join(repo, 'data.txt'), 'scribbled\n');
    await callClean(host, ran, 'discard', { repo, paths: ['data.txt'] });
    expect(fs.readFileSync(path.join(repo, 'data.txt'), 'utf8')).toBe('data\n');
  });

  it("a partial clone's missing object is not fetched through the transport the repository's config names", async () => {
    const { program, ran } = hostilePrograms();
    const source = makeRepo(tempDir('chatos-git-source-'));
    gitIn(source, 'config', 'uploadpack.allowFilter', 'true');
    fs.writeFileSync(path.join(source, 'README.md'), 'second\n');
    gitIn(source, 'commit', '--quiet', '--all', '-m', 'second');
    const root = tempDir('chatos-git-root-');
    const clone = path.join(root, 'clone');
    gitIn(root, 'clone', '--quiet', '--filter=blob:none', `file://${source}`, clone);
    // The index now names the first commit's README.md, whose blob the clone never fetched: a staged diff needs it.
    gitIn(clone, 'read-tree', 'HEAD~1');
    gitIn(clone, 'config', 'remote.origin.url', `ext::${program('remote-ext')}`);
    gitIn(clone, 'config', 'protocol.ext.allow', 'always');
    const host = await gitHost([root]);

    const result = await callGit(host, 'diff', { repo: clone, staged: true });
    expect(ran()).toEqual([]);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("transport 'ext' not allowed");
  });

  it('a program named under a key git cannot override on the command line: the repository is refused', async () => {
    const { program, ran } = hostilePrograms();
    const repo = makeRepo();
    fs.writeFileSync(path.join(repo, '.gitattributes'), 'README.md filter=a=b\n');
    fs.writeFileSync(path.join(repo, '.git', 'config'), `[filter "a=b"]\n\tclean = ${program('filter.a=b.clean', { filter: true })}\n`, { flag: 'a' });
    touch(repo, 'README.md');
    const host = await gitHost([path.dirname(repo)]);

    const result = await callGit(host, 'status', { repo });
    expect(ran()).toEqual([]);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('names a program under "filter.a=b.clean"');
  });
});

describe('the Git app touches no repository outside the workspace folders', () => {
  /** A repository outside the roots, with history the model must not read. */
  function victim(): string {
    const repo = makeRepo(tempDir('chatos-git-outside-'), 'victim');
    fs.writeFileSync(path.join(repo, 'plans.txt'), 'secret\n');
    gitIn(repo, 'add', 'plans.txt');
    gitIn(repo, 'commit', '--quiet', '-m', 'secret plans');
    return repo;
  }

  /** What stage and commit would move in `repo`: its HEAD and its index. */
  const stateOf = (repo: string) => ({ head: gitIn(repo, 'rev-parse', 'HEAD'), index: gitIn(repo, 'ls-files', '--stage') });

  /** log, status, stage and commit on `folder` are refused with `reason`, naming `place`: `target`'s index and HEAD do not move, and its history is not shown. */
  async function expectRefused(host: Host, folder: string, target: string, reason: string, place: string) {
    const before = stateOf(target);
    fs.writeFileSync(path.join(folder, 'dropped.txt'), 'from the folder\n');
    const answers = new Map<string, CallToolResult>();
    for (const [tool, args] of [
      ['log', { all: true }],
      ['status', {}],
      ['stage', { paths: ['dropped.txt'] }],
      ['commit', { message: 'Written from inside the roots' }],
    ] as const)
      answers.set(tool, await callGit(host, tool, { repo: folder, ...args }));
    expect(stateOf(target), 'stage and commit wrote the other repository').toEqual(before);
    for (const [tool, result] of answers) {
      expect(result.isError, `${tool}: ${textOf(result)}`).toBe(true);
      expect(textOf(result)).toContain(reason);
      expect(textOf(result)).toContain(place);
      expect(textOf(result)).not.toContain('secret plans');
    }
  }

  it('a .git file pointing at a repository elsewhere', async () => {
    const target = victim();
    const root = tempDir('chatos-git-root-');
    const folder = path.join(root, 'linked');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, '.git'), `gitdir: ${path.join(target, '.git')}\n`);
    const host = await gitHost([root]);
    await expectRefused(host, folder, target, 'keeps its git data', fs.realpathSync(path.join(target, '.git')));
  });

  it('a bare repository elsewhere whose core.worktree is a folder inside the roots', async () => {
    const target = victim();
    const bare = path.join(path.dirname(target), 'dotfiles.git');
    gitIn(path.dirname(target), 'clone', '--quiet', '--bare', target, bare);
    const root = tempDir('chatos-git-root-');
    const folder = path.join(root, 'home');
    fs.mkdirSync(folder);
    gitIn(bare, 'config', 'core.bare', 'false');
    gitIn(bare, 'config', 'core.worktree', folder);
    fs.writeFileSync(path.join(folder, '.git'), `gitdir: ${bare}\n`);
    const host = await gitHost([root]);
    await expectRefused(host, folder, bare, 'keeps its git data', fs.realpathSync(bare));
  });

  it("a linked worktree whose git dir is inside the roots but whose commondir is another repository's", async () => {
    const target = victim();
    const root = tempDir('chatos-git-root-');
    const folder = path.join(root, 'worktree');
    const gitDir = path.join(folder, '.gitdata');
    fs.mkdirSync(gitDir, { recursive: true });
    fs.writeFileSync(path.join(gitDir, 'commondir'), `${path.join(target, '.git')}\n`);
    fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(gitDir, 'gitdir'), `${path.join(folder, '.git')}\n`);
    fs.writeFileSync(path.join(folder, '.git'), 'gitdir: .gitdata\n');
    const host = await gitHost([root]);
    await expectRefused(host, folder, target, 'shares the history and refs of', fs.realpathSync(path.join(target, '.git')));
  });

  it("a repository inside the roots whose git dir links to another repository's packs and refs", async () => {
    const target = victim();
    gitIn(target, 'branch', 'plans');
    gitIn(target, 'repack', '-a', '-d', '-q');
    gitIn(target, 'pack-refs', '--all');
    const root = tempDir('chatos-git-root-');
    const folder = makeRepo(root, 'linker');
    const pack = path.join(folder, '.git', 'objects', 'pack');
    fs.rmSync(pack, { recursive: true });
    fs.symlinkSync(path.join(target, '.git', 'objects', 'pack'), pack);
    fs.symlinkSync(path.join(target, '.git', 'packed-refs'), path.join(folder, '.git', 'packed-refs'));
    const host = await gitHost([root]);
    await expectRefused(host, folder, target, 'is a link to it', fs.realpathSync(path.join(target, '.git', 'packed-refs')));
  });

  it("a repository inside the roots that borrows another repository's objects (alternates)", async () => {
    const target = victim();
    const root = tempDir('chatos-git-root-');
    const folder = makeRepo(root, 'borrower');
    const objects = path.join(target, '.git', 'objects');
    fs.writeFileSync(path.join(folder, '.git', 'objects', 'info', 'alternates'), `${objects}\n`);
    // A ref to the other repository's commit: its objects are read through the alternate.
    fs.writeFileSync(path.join(folder, '.git', 'refs', 'heads', 'borrowed'), gitIn(target, 'rev-parse', 'HEAD'));
    const host = await gitHost([root]);
    await expectRefused(host, folder, target, 'takes objects from', fs.realpathSync(objects));
  });
});
