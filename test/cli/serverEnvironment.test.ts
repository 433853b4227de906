import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Issue 14, "Server environment": servers keep a small default environment,
 * but get what real servers need (locale, time zone, temp folders, XDG,
 * proxies, CA certificates); an mcp.yaml server may ask for more by name or
 * for everything (`inheritEnv`), a plugin's server may not. Through
 * `chatos call` and a real stdio server that answers with its own
 * environment.
 */

const SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'processTestServer.mjs');

const shell = {
  LANG: 'de_DE.UTF-8',
  LC_TIME: 'C',
  TZ: 'Asia/Tokyo',
  TMPDIR: '/tmp/from-host',
  XDG_CONFIG_HOME: '/home/someone/.config',
  HTTPS_PROXY: 'http://proxy.example:3128',
  no_proxy: 'localhost',
  SSL_CERT_FILE: '/etc/ssl/extra.pem',
  MY_EXTRA: 'named',
  MY_SECRET_TOKEN: 'do-not-leak',
};
const ALLOWED = ['LANG', 'LC_TIME', 'TZ', 'TMPDIR', 'XDG_CONFIG_HOME', 'HTTPS_PROXY', 'no_proxy', 'SSL_CERT_FILE'] as const;

const yamlServer = (name: string, extra = '') => `  ${name}:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(SERVER)}]\n${extra}`;

function envOf(tool: string, home: string, more: string[] = []): Record<string, string> {
  const run = runCliProcess(['call', tool, '--app', 'chatos', '--json', '--home', home, ...more], { env: shell, timeoutMs: 60_000 });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.json().result.content[0].text);
}

describe('the environment a server gets', () => {
  it('mcp.yaml servers: the documented list by default, named variables with inheritEnv: [..], everything with inheritEnv: true', () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'chatos', 'mcp.yaml'),
      `version: 1\nservers:\n${yamlServer('plain')}${yamlServer('named', '    inheritEnv: [MY_EXTRA]\n')}${yamlServer('whole', '    inheritEnv: true\n')}`,
    );

    const plain = envOf('mcp_plain_env', home);
    for (const name of ALLOWED) expect(plain[name], name).toBe(shell[name]);
    expect(plain.MY_EXTRA).toBeUndefined();
    expect(plain.MY_SECRET_TOKEN).toBeUndefined();

    const named = envOf('mcp_named_env', home);
    expect(named.MY_EXTRA).toBe('named');
    expect(named.MY_SECRET_TOKEN).toBeUndefined();
    expect(named.TZ).toBe('Asia/Tokyo');

    expect(envOf('mcp_whole_env', home).MY_SECRET_TOKEN).toBe('do-not-leak');
  }, 300_000);

  it('a plugin server gets the documented list and no more, even when its plugin.json asks for inheritEnv; the run plan lists what it inherits', async () => {
    const root = tempDir();
    const home = tempDir();
    const dir = writePlugin(
      root,
      'envy',
      {
        manifestVersion: 1,
        id: 'com.example.envy',
        name: 'Envy',
        version: '1.0.0',
        apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true, inheritEnv: true } } }],
      },
      // The entry runs the fixture server from this checkout, where its imports resolve.
      { 'index.mjs': 'export function mount() {}\n', 'server.mjs': `import ${JSON.stringify(pathToFileURL(SERVER).href)};\n` },
    );
    const validated = await runCli(['validate', dir, '--json', '--home', home]);
    expect(validated.json().problems).toContainEqual(expect.objectContaining({ code: 'UNKNOWN_KEY', path: 'apps[0].ai.mcp.inheritEnv' }));
    expect((await runCli(['trust', 'com.example.envy', '--home', home, '--plugins', root])).code).toBe(0);

    const env = envOf('mcp_com_example_envy_main_env', home, ['--plugins', root]);
    for (const name of ALLOWED) expect(env[name], name).toBe(shell[name]);
    expect(env.MY_EXTRA).toBeUndefined();
    expect(env.MY_SECRET_TOKEN).toBeUndefined();

    const plan = (await runCli(['apps', '--json', '--home', home, '--plugins', root])).json().plugins.find((p: { id: string }) => p.id === 'com.example.envy').runPlan;
    const inherited: string[] = plan.servers[0].env.inherited;
    for (const name of ['PATH', 'HOME', 'LANG', 'LC_*', 'TZ', 'TMPDIR', 'XDG_CONFIG_HOME', 'HTTPS_PROXY', 'no_proxy', 'SSL_CERT_FILE', 'NODE_EXTRA_CA_CERTS']) expect(inherited).toContain(name);
    expect(inherited).not.toContain('MY_EXTRA');
  }, 300_000);
});
