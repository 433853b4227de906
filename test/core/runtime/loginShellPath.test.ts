import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptLoginShellPath, loginShellPath, mergePaths, serverPathSource } from '../../../src/core/runtime/loginShellPath.js';
import { serverEnvironment } from '../../../src/core/mcp/process/serverEnvironment.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * Issue 19: a GUI launch reads the user's login-shell PATH once at start and
 * servers get it. With stand-in shells: scripts set as SHELL that answer as
 * a login shell would (`-ilc <command>`), with a PATH of their own.
 */

function standInShell(body: string): string {
  const file = path.join(tempDir(), 'stand-in-shell');
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

/** Runs the command it is given (after -ilc) with the PATH a profile would build. */
const profileShell = (profilePath: string) => standInShell(`PATH=${profilePath}; export PATH\nshift\nexec /bin/sh -c "$1"`);

describe.skipIf(process.platform === 'win32')("the login shell's PATH", () => {
  it('is read from $SHELL: the PATH its profile builds', async () => {
    const shell = profileShell('/opt/profile/bin:/usr/bin:/bin');
    expect(await loginShellPath(shell)).toEqual({ ok: true, path: '/opt/profile/bin:/usr/bin:/bin' });
  });

  it('becomes the PATH servers get, ahead of the inherited one, and diagnostics say where it came from', async () => {
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/session/only', SHELL: profileShell('/opt/profile/bin:/usr/bin:/bin'), HOME: '/home/someone' };
    const source = await adoptLoginShellPath(env, 'linux');
    expect(env.PATH).toBe('/opt/profile/bin:/usr/bin:/bin:/session/only');
    expect(source).toMatchObject({ kind: 'login-shell', path: env.PATH, shell: env.SHELL });
    expect(serverPathSource()).toEqual(source);
    expect(serverEnvironment(env, undefined, {}).PATH).toBe('/opt/profile/bin:/usr/bin:/bin:/session/only');
  });

  it('a shell that fails leaves the inherited PATH, and says why', async () => {
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin', SHELL: standInShell('echo "profile broken" >&2\nexit 3') };
    const source = await adoptLoginShellPath(env, 'linux');
    expect(env.PATH).toBe('/usr/bin:/bin');
    expect(source).toMatchObject({ kind: 'login-shell-failed', path: '/usr/bin:/bin', shell: env.SHELL });
    expect(source.kind === 'login-shell-failed' && source.error).toMatch(/exit|3/);
  });

  it('a shell that answers without a PATH leaves the inherited one', async () => {
    expect(await loginShellPath(standInShell('printf _SHELL_ENV_DELIMITER_HOME=/x_SHELL_ENV_DELIMITER_'))).toEqual({ ok: false, error: 'its environment has no PATH' });
  });

  it('merges without repeats or empty entries', () => {
    expect(mergePaths('/a:/b::/a', '/b:/c:', ':')).toBe('/a:/b:/c');
  });
});
