import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type RegistryFixture } from '../helpers/mcpRegistry.js';
import { approveInBrowser, startOAuthServer, type OAuthServer } from '../helpers/oauthServer.js';
import { runCli } from '../helpers/runCli.js';
import { runSigningIn, type SignInRun } from '../helpers/signInProcess.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * A catalog remote that asks for sign-in (issue 46): the local registry's
 * entry names a real OAuth-protected MCP server on this machine
 * (test/helpers/oauthServer.ts). `chatos catalog add` finds at once that it
 * asks for sign-in and, asked to, signs in through the sign-in `chatos mcp
 * login` runs (the test plays the browser with the page it prints); the
 * token goes to the key store and the server then answers. Without a
 * terminal and without --sign-in it only says how to sign in.
 */

let reg: RegistryFixture;
let oauth: OAuthServer;

beforeAll(async () => {
  reg = await startRegistry();
  oauth = await startOAuthServer({ account: 'lin@example.com', shared: true });
});

afterAll(async () => {
  await reg?.close();
  await oauth?.close();
});

const port = () => new URL(oauth.url).port;

/** `chatos catalog add … --sign-in --no-browser` as a process; the sign-in page it prints is handed to `browser` once shown. */
function addSigningIn(home: string, browser: (url: URL) => Promise<unknown>): Promise<SignInRun> {
  return runSigningIn(['--home', home, 'catalog', 'add', 'io.github.chatos-test/tracker', '--registry', reg.url, '--set', `port=${port()}`, '--sign-in', '--no-browser'], browser);
}

describe('a catalog remote behind sign-in', { timeout: 180_000 }, () => {
  it('is added, found to ask for sign-in, and signed in through the browser; the server then answers', async () => {
    const home = tempDir('chatos-cli-catalog-signin-');
    const added = await addSigningIn(home, approveInBrowser);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added tracker to mcp.yaml (registry id chatos::tracker)');
    expect(added.stdout).toContain('tracker asks you to sign in (asks for mcp:read)');
    expect(added.stderr).toContain('Open this page to sign in to tracker:');
    expect(added.stdout).toMatch(/^tracker: signed in as lin@example\.com/m);

    const tested = await runCli(['--home', home, 'mcp', 'test', 'tracker'], { timeoutMs: 90_000 });
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toContain('whoami');
    // The token is a secret: in the key store, never in mcp.yaml.
    expect(fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8')).not.toMatch(/token|Bearer/i);
  });

  it('without a terminal or --sign-in, says it asks for sign-in and how, and waits for no browser', async () => {
    const home = tempDir('chatos-cli-catalog-signin-');
    const added = await runCli(['--home', home, 'catalog', 'add', 'io.github.chatos-test/tracker', '--registry', reg.url, '--set', `port=${port()}`], { timeoutMs: 90_000 });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('tracker asks you to sign in (asks for mcp:read)');
    expect(added.stdout).toContain('sign in: chatos mcp login tracker');
    const listed = await runCli(['--home', home, 'mcp', 'list'], { timeoutMs: 90_000 });
    expect(listed.stdout).toContain('sign-in needed (asks for mcp:read) (chatos mcp login tracker)');
  });
});
