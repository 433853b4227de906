import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveInBrowser, startOAuthServer } from '../helpers/oauthServer.js';
import { runCli } from '../helpers/runCli.js';
import { runSigningIn, type SignInRun } from '../helpers/signInProcess.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos mcp login NAME`, `chatos mcp logout NAME` and the sign-in line of
 * `chatos mcp list`, against a local authorization server; the test plays
 * the browser with the url login prints. The token lands in the key store,
 * never in mcp.yaml, and `chatos mcp test` then connects with it.
 */

/** Runs `chatos mcp login` and hands the printed sign-in url to `browser` as soon as it shows. */
function login(home: string, name: string, browser: (url: URL) => Promise<unknown>): Promise<SignInRun> {
  return runSigningIn(['--home', home, 'mcp', 'login', name, '--no-browser', '--timeout', '60'], browser);
}

// Nine CLI runs in the first test: at load 25 on two cores that took 120 s.
describe('chatos mcp login / logout', { timeout: 300_000 }, () => {
  it('signs in through the browser, shows who in mcp list, connects with the token, and signs out', async () => {
    const server = await startOAuthServer({ account: 'grace@example.com' });
    const home = tempDir('chatos-cli-login-');
    const cli = (...args: string[]) => runCli(['--home', home, ...args], { timeoutMs: 90_000 });
    const added = await cli('mcp', 'add', 'tracker', '--url', server.url);
    expect(added.code, added.stderr).toBe(0);

    const before = await cli('mcp', 'test', 'tracker');
    expect(before.code).toBe(1);
    expect(`${before.stdout}${before.stderr}`).toContain('chatos mcp login tracker');
    const needed = await cli('mcp', 'list');
    expect(needed.stdout).toContain('sign-in needed (asks for mcp:read) (chatos mcp login tracker)');

    const signedIn = await login(home, 'tracker', approveInBrowser);
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.stderr).toContain('Open this page to sign in to tracker:');
    expect(signedIn.stdout).toMatch(/^tracker: signed in as grace@example\.com \(expires \S+, renewed by itself\)$/m);

    const listed = await cli('mcp', 'list', '--json');
    const entry = listed.json<{ servers: { name: string; signIn?: { kind: string; account?: string } }[] }>().servers.find((s) => s.name === 'tracker');
    expect(entry?.signIn).toMatchObject({ kind: 'signed-in', account: 'grace@example.com' });
    const tested = await cli('mcp', 'test', 'tracker');
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toContain('whoami');

    // The token is a secret: in the key store, not in mcp.yaml.
    const yaml = fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8');
    expect(yaml).not.toMatch(/token|Bearer/i);
    expect(server.accepted.length).toBeGreaterThan(0);
    const secrets = fs.readFileSync(path.join(home, 'chatos', 'secrets.json'), 'utf8');
    expect(secrets).toContain(server.accepted[0]!.slice(0, 20));

    const out = await cli('mcp', 'logout', 'tracker');
    expect(out.stdout).toContain('signed out of tracker');
    expect(fs.readFileSync(path.join(home, 'chatos', 'secrets.json'), 'utf8')).not.toContain(server.accepted[0]!.slice(0, 20));
    const after = await cli('mcp', 'test', 'tracker');
    expect(after.code).toBe(1);
  });

  it('a refused sign-in names the step and the fix, exits 1, and stores nothing', async () => {
    const server = await startOAuthServer({ tokenEndpointHost: 'localhost' });
    const home = tempDir('chatos-cli-login-');
    const added = await runCli(['--home', home, 'mcp', 'add', 'tracker', '--url', server.url]);
    expect(added.code, added.stderr).toBe(0);
    const refused = await login(home, 'tracker', approveInBrowser);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("sign-in failed while reading the authorization server's metadata");
    expect(refused.stderr).toContain('token_endpoint');
    expect(refused.stderr).toMatch(/fix: .*operator/);
    expect(server.tokenGrants).toEqual([]);
  });
});
