import { describe, expect, it } from 'vitest';
import { namesProgram, overridesFor, parseConfigList } from '../../../plugins/git/lib/repoConfig.mjs';

/**
 * The rule that takes back the programs a repository's own config names,
 * on listings as `git config --list --show-scope -z` prints them: which keys
 * name a program, which scopes are the user's, and what each key is set to
 * instead (the user's own value, else an inert one).
 */

/** A listing: [scope, key, value (null: a key written without "=")]. */
const listing = (...entries: [string, string, string | null][]) => entries.map(([scope, key, value]) => `${scope}\0${value === null ? key : `${key}\n${value}`}\0`).join('');

describe('the Git app takes back what a repository config names', () => {
  it('reads scopes, keys and values, values with line breaks and keys without a value', () => {
    expect(parseConfigList(listing(['global', 'user.name', 'Me'], ['local', 'filter.x.clean', 'a\nb'], ['local', 'filter.x.smudge', null]))).toEqual([
      { scope: 'global', key: 'user.name', value: 'Me' },
      { scope: 'local', key: 'filter.x.clean', value: 'a\nb' },
      { scope: 'local', key: 'filter.x.smudge', value: null },
    ]);
  });

  it('knows the keys that name or turn on a program, and leaves the rest', () => {
    const programs = [
      'filter.x.clean',
      'filter.x.smudge',
      'filter.x.process',
      'filter.x.required',
      'filter.With.Dots.In.clean',
      'diff.x.command',
      'diff.x.textconv',
      'diff.external',
      'merge.x.driver',
      'gpg.program',
      'gpg.ssh.program',
      'gpg.x509.program',
      'gpg.ssh.defaultkeycommand',
      'log.showsignature',
      'commit.gpgsign',
      'tag.gpgsign',
      'core.sshcommand',
      'core.askpass',
      'core.editor',
      'core.pager',
      'core.gitproxy',
      'core.fsmonitor',
      'core.hookspath',
      'core.alternaterefscommand',
      'sequence.editor',
      'credential.helper',
      'credential.https://example.com.helper',
      'uploadpack.packobjectshook',
      'remote.origin.uploadpack',
      'remote.origin.vcs',
      'hook.lint.command',
      'interactive.difffilter',
      'pager.log',
      'mergetool.x.cmd',
      'difftool.x.path',
      'lfs.customtransfer.x.path',
    ];
    for (const key of programs) expect(namesProgram(key), key).toBe(true);
    for (const key of ['user.name', 'include.path', 'includeif.gitdir:~/x/.path', 'core.worktree', 'remote.origin.url', 'core.excludesfile', 'filter.x.other'])
      expect(namesProgram(key), key).toBe(false);
  });

  it("sets a key the folder set to the user's own value, else to git's default or one that runs nothing; keys only the user set are left", () => {
    const args = overridesFor(
      parseConfigList(
        listing(
          ['system', 'credential.helper', 'cache'],
          ['global', 'filter.lfs.clean', 'git-lfs clean -- %f'],
          ['global', 'filter.lfs.smudge', 'git-lfs smudge -- %f'],
          ['local', 'filter.lfs.clean', '/tmp/evil'],
          ['local', 'gpg.program', '/tmp/evil'],
          ['local', 'core.hookspath', '/tmp/hooks'],
          ['local', 'credential.helper', '/tmp/evil'],
          ['worktree', 'filter.Mixed.Case.process', '/tmp/evil'],
          ['local', 'user.name', 'Someone'],
        ),
      ),
    );
    expect(args).toEqual([
      // The last -c setting of a single key counts: the user's own filter, not the folder's.
      '-c',
      'filter.lfs.clean=',
      '-c',
      'filter.lfs.clean=git-lfs clean -- %f',
      // git's own default: gpg from PATH, used only if the user's config signs.
      '-c',
      'gpg.program=gpg',
      '-c',
      'core.hookspath=/dev/null',
      // An empty helper empties the list; the user's helpers come back in order.
      '-c',
      'credential.helper=',
      '-c',
      'credential.helper=cache',
      '-c',
      'filter.Mixed.Case.process=',
    ]);
  });

  it('refuses a program key git cannot be given on the command line (an "=" in its subsection)', () => {
    expect(() => overridesFor(parseConfigList(listing(['local', 'filter.a=b.clean', '/tmp/evil'])))).toThrow('filter.a=b.clean');
  });
});
