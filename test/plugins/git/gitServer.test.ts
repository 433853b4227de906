import * as fs from 'node:fs';
import { confirm, onAsked } from '../../helpers/questions.js';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { textOf } from '../../helpers/gatewayHost.js';
import { callGit, GIT_SERVER, gitHost, gitIn, gitTool, makeRepo, shippedHost } from '../../helpers/gitApp.js';

/**
 * The built-in Git app's MCP server through the gateway, on a real
 * repository with the real `git`: an agent granted the server stages and
 * commits; checkout asks the user first; a repository outside the agent's
 * workspace folders, a branch name that is an option or a shell command,
 * and a 1 MB commit message are refused with a message saying what to do.
 */

describe('the built-in Git app through the gateway', () => {
  it('a fresh data home holds its row and the WSL row, granted to nobody', async () => {
    const { host } = await shippedHost();
    expect(host.registry.getServer(GIT_SERVER)).toMatchObject({ providerAppId: 'git_app', source: { kind: 'plugin' } });
    expect(host.registry.getServer('wsl::chatos.wsl.wsl')).toMatchObject({ providerAppId: 'wsl', source: { kind: 'plugin' } });
    expect(host.registry.listPrompts().map((p) => p.id)).toEqual(expect.arrayContaining(['git_app::mcp_chatos_git_git', 'git_app::mcp_chatos_git_git__en', 'wsl::mcp_chatos_wsl_wsl']));
    const grants = host.registry.listGrants('server').filter((g) => g.targetId === GIT_SERVER || g.targetId === 'wsl::chatos.wsl.wsl');
    expect(grants).toEqual([]);
  });

  it('an agent granted the server stages and commits in its workspace repository; checkout asks first', async () => {
    const repo = makeRepo();
    const host = await gitHost([path.dirname(repo)]);
    fs.writeFileSync(path.join(repo, 'README.md'), 'hello\nworld\n');
    fs.writeFileSync(path.join(repo, 'new.txt'), 'new\n');

    const status = await callGit(host, 'status', { repo });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({
      branch: 'main',
      staged: [],
      unstaged: expect.arrayContaining([expect.objectContaining({ path: 'new.txt' }), expect.objectContaining({ path: 'README.md' })]),
    });
    expect(textOf(await callGit(host, 'diff', { repo }))).toContain('+world');

    // A relative path is taken from the only workspace folder.
    expect((await callGit(host, 'stage', { repo: 'project', paths: ['README.md', 'new.txt'] })).isError).toBeFalsy();
    expect(textOf(await callGit(host, 'diff', { repo, staged: true }))).toContain('+new');
    const committed = await callGit(host, 'commit', { repo, message: 'Add new.txt and a line\n\n#42: because the test says so.' });
    expect(committed.isError, textOf(committed)).toBeFalsy();
    expect(gitIn(repo, 'log', '-1', '--format=%B').trim()).toBe('Add new.txt and a line\n\n#42: because the test says so.');
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    expect(textOf(await callGit(host, 'log', { repo }))).toMatch(/\* [0-9a-f]+ .* Add new.txt and a line/);

    // checkout is confirm: the user is asked before git runs, and a decline leaves the branch.
    gitIn(repo, 'branch', 'feature');
    const asked: ToolConfirmationRequest[] = [];
    const stop = onAsked(host, 'toolConfirmation', (request) => {
      asked.push(request);
      void confirm(host, request.id, asked.length > 1);
    });
    const declined = await callGit(host, 'checkout', { repo, branch: 'feature' });
    expect(declined.isError).toBe(true);
    expect(gitIn(repo, 'branch', '--show-current').trim()).toBe('main');
    const approved = await callGit(host, 'checkout', { repo, branch: 'feature' });
    expect(approved.isError, textOf(approved)).toBeFalsy();
    stop();
    expect(asked.map((r) => r.toolName)).toEqual([gitTool('checkout'), gitTool('checkout')]);
    expect(gitIn(repo, 'branch', '--show-current').trim()).toBe('feature');
    // Reads and writes were not asked about.
    expect(asked).toHaveLength(2);
  });

  it('refuses a repository outside the workspace folders, bad branch names and a 1 MB message', async () => {
    const inside = makeRepo();
    const outside = makeRepo();
    const host = await gitHost([path.dirname(inside)]);
    onAsked(host, 'toolConfirmation', (request) => void confirm(host, request.id, true));

    const far = await callGit(host, 'status', { repo: outside });
    expect(far.isError).toBe(true);
    expect(textOf(far)).toContain('is outside the workspace folders');
    // A link inside the roots to a repository outside them is no way round.
    fs.symlinkSync(outside, path.join(path.dirname(inside), 'link'));
    expect(textOf(await callGit(host, 'status', { repo: path.join(path.dirname(inside), 'link') }))).toContain('is outside the workspace folders');
    expect(textOf(await callGit(host, 'status', { repo: path.join(path.dirname(inside), '..') }))).toContain('is outside the workspace folders');

    for (const branch of ['-x', '--orphan=x']) expect(textOf(await callGit(host, 'checkout', { repo: inside, branch, create: true }))).toContain('starts with "-"');
    for (const branch of [';rm -rf ~', 'a$(touch pwned)', 'x|y']) expect(textOf(await callGit(host, 'checkout', { repo: inside, branch, create: true }))).toContain('cannot have');
    expect(textOf(await callGit(host, 'checkout', { repo: inside, branch: 'a..b', create: true }))).toContain('not a valid branch name');
    expect(fs.existsSync(path.join(inside, 'pwned'))).toBe(false);
    expect(gitIn(inside, 'branch', '--format=%(refname:short)').trim()).toBe('main');

    fs.writeFileSync(path.join(inside, 'README.md'), 'changed\n');
    await callGit(host, 'stage', { repo: inside, paths: ['README.md'] });
    const huge = await callGit(host, 'commit', { repo: inside, message: 'x'.repeat(1024 * 1024) });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toContain('a commit message may have at most 16384 bytes');
    expect(gitIn(inside, 'rev-list', '--count', 'HEAD').trim()).toBe('1');

    expect(textOf(await callGit(host, 'stage', { repo: inside, paths: ['../elsewhere'] }))).toContain('is outside the repository');
  });

  it('with no workspace folders the server refuses and says how to add one', async () => {
    const host = await gitHost([]);
    const result = await callGit(host, 'status', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("add the repository's folder to the agent's Workspace folders");
  });
});
