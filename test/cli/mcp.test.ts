import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { aliasBomb } from '../helpers/aliasBomb.js';
import { startHttpEverything } from '../helpers/everythingHttp.js';
import { EVERYTHING_SERVER } from '../helpers/gatewayHost.js';
import { runCli, type CliRun } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';

/**
 * `chatos mcp …` (issue 18): the user's servers from a terminal, through the
 * same core as the MCP servers page. mcp.yaml keeps its comments and order
 * across an add and a remove; an import of a Claude Desktop config shows its
 * plan (a conflict, a refused SSE server) and imports only on --yes; test
 * starts real servers over stdio and streamable HTTP.
 */

const CHAT_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'chatServer.mjs');

const HAND_WRITTEN = `# My servers; ChatOS must keep this comment.
version: 1
servers:
  # first: a server I wrote by hand
  alpha:
    command: node
    args:
      - alpha.js # the entry
    timeout: 5000

  # second
  beta:
    url: http://127.0.0.1:7/mcp
# trailing notes stay too
`;

function home(text?: string): { home: string; file: string; cli: (...args: string[]) => Promise<CliRun> } {
  const dir = tempDir('chatos-cli-mcp-');
  const file = path.join(dir, 'chatos', 'mcp.yaml');
  if (text !== undefined) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return { home: dir, file, cli: (...args) => runCli(['--home', dir, ...args], { timeoutMs: 90_000 }) };
}

const block = (text: string, name: string) => new RegExp(`^( {2}# [^\\n]*\\n)* {2}${name}:\\n( {4}.*\\n)*`, 'm').exec(text)?.[0];

describe('chatos mcp add / remove', () => {
  it("keeps mcp.yaml's comments and order across an add and a remove; the servers not named are left as written", async () => {
    const { file, cli } = home(HAND_WRITTEN);
    const alpha = block(HAND_WRITTEN, 'alpha')!;
    expect(alpha).toContain('# the entry');

    const added = await cli('mcp', 'add', 'gamma', '--command', 'npx', '--env', 'LOG=debug', '--env-var', 'TOKEN=MY_TOKEN', '--', '-y', '@modelcontextprotocol/server-everything');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added gamma to mcp.yaml (registry id chatos::gamma)');
    let text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('# My servers; ChatOS must keep this comment.\n')).toBe(true);
    expect(text).toContain(alpha);
    expect(text).toContain('# second\n  beta:');
    expect(text).toContain('# trailing notes stay too');
    expect([...text.matchAll(/^ {2}([a-z]+):/gm)].map((m) => m[1])).toEqual(['alpha', 'beta', 'gamma']);
    expect(text).toContain('TOKEN: { env: MY_TOKEN }');

    const removed = await cli('mcp', 'remove', 'beta');
    expect(removed.code, removed.stderr).toBe(0);
    text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/^ {2}beta:/m);
    expect(text).toContain(alpha);
    expect(text.startsWith('# My servers; ChatOS must keep this comment.\n')).toBe(true);
    expect(text).toContain('# trailing notes stay too');

    const list = await cli('--json', 'mcp', 'list');
    expect(list.code).toBe(0);
    expect(list.json().servers.map((s: { name: string }) => s.name)).toEqual(['alpha', 'gamma']);
    expect(list.json().servers[1]).toMatchObject({
      args: ['-y', '@modelcontextprotocol/server-everything'],
      env: [
        { key: 'LOG', value: { kind: 'text', text: 'debug' } },
        { key: 'TOKEN', value: { kind: 'env', name: 'MY_TOKEN' } },
      ],
    });
  });

  it('refuses a bad server as bad usage naming the option and the fix, and writes nothing', async () => {
    const { file, cli } = home(HAND_WRITTEN);
    const ws = await cli('mcp', 'add', 'sock', '--url', 'ws://127.0.0.1:1/mcp');
    expect(ws.code).toBe(2);
    expect(ws.stderr).toContain('--url:');
    expect(ws.stderr).toContain('WebSocket');
    expect(ws.stderr).toContain('fix:');
    const taken = await cli('mcp', 'add', 'alpha', '--command', 'x');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already has a server named "alpha"');
    expect((await cli('mcp', 'add', 'both', '--command', 'x', '--url', 'http://a/')).code).toBe(2);
    const missing = await cli('mcp', 'remove', 'alpah');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('did you mean "alpha"');
    expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
  });

  it('options that do not go together, or are not of their form, are bad usage naming the option (exit 2), and nothing is written', async () => {
    const { file, home: dir, cli } = home(HAND_WRITTEN);
    const config = path.join(dir, 'claude_desktop_config.json');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { gamma: { command: 'x' } } }));
    const cases: [string[], string][] = [
      [['mcp', 'add', 'mem', '--template', 'memory', '--command', 'x'], 'give --template, or --command / --url, not both'],
      [['mcp', 'add', 'web', '--url', 'http://127.0.0.1:1/mcp', '--arg', '-y'], '--arg, --env, --env-var, --cwd and --node-runtime are for --command (stdio)'],
      [['mcp', 'add', 'web', '--url', 'http://127.0.0.1:1/mcp', '--', '-y'], '--arg, --env, --env-var, --cwd and --node-runtime are for --command (stdio)'],
      [['mcp', 'add', 'web', '--url', 'http://127.0.0.1:1/mcp', '--node-runtime', 'bundled'], '--node-runtime are for --command (stdio)'],
      [['mcp', 'add', 'noded', '--command', 'node', '--node-runtime', 'sometimes'], '--node-runtime:'],
      [['mcp', 'add', 'env', '--command', 'x', '--env', 'NO_VALUE'], '--env takes NAME=VALUE, not "NO_VALUE"'],
      [['mcp', 'add', 'env', '--command', 'x', '--env-var', '=HOME'], '--env-var takes NAME=VALUE, not "=HOME"'],
      [['mcp', 'add', 'web', '--url', 'http://127.0.0.1:1/mcp', '--header', 'Authorization'], '--header takes NAME=VALUE, not "Authorization"'],
      [['mcp', 'test', 'alpha', '--timeout', 'soon'], '--timeout must be a positive number of seconds, not "soon"'],
      [['mcp', 'test', 'alpha', '--timeout', '0'], '--timeout must be a positive number of seconds, not "0"'],
      [['mcp', 'import', config, '--yes', '--on-conflict', 'merge'], '--on-conflict must be skip, replace or rename, not "merge"'],
    ];
    for (const [args, message] of cases) {
      const run = await cli(...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(message);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
  });

  it('--node-runtime writes which Node runs a node server, and list shows it', async () => {
    const { file, cli } = home(HAND_WRITTEN);
    const added = await cli('mcp', 'add', 'noded', '--command', 'node', '--node-runtime', 'bundled', '--', 'server.mjs');
    expect(added.code, added.stderr).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/ {2}noded:\n {4}command: node\n {4}args:\n {6}- server\.mjs\n {4}nodeRuntime: bundled\n/);
    expect(added.stdout).toContain('node runtime bundled');
    expect((await cli('mcp', 'list', '--json')).json().servers.find((s: { name: string }) => s.name === 'noded')).toMatchObject({ nodeRuntime: 'bundled' });
  });

  it('disable and enable write disabled: true into the file and take it out again', async () => {
    const { file, cli } = home(HAND_WRITTEN);
    expect((await cli('mcp', 'disable', 'alpha')).code).toBe(0);
    expect(block(fs.readFileSync(file, 'utf8'), 'alpha')).toContain('disabled: true');
    expect((await cli('mcp', 'enable', 'alpha')).code).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
  });
});

describe('chatos mcp import', () => {
  const claude = {
    mcpServers: {
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_cli_import_secret' } },
      alpha: { command: 'uvx', args: ['other-alpha'] },
      legacy: { url: 'http://127.0.0.1:8000/sse' },
    },
  };

  it('shows the plan (conflict, refused SSE) and without a terminal or --yes imports nothing, with the hint', async () => {
    const { file, cli, home: dir } = home(HAND_WRITTEN);
    const config = path.join(dir, 'claude_desktop_config.json');
    fs.writeFileSync(config, JSON.stringify(claude, null, 2));
    const planned = await cli('mcp', 'import', config);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toMatch(/add +filesystem/);
    expect(planned.stdout).toMatch(/conflict alpha/);
    expect(planned.stdout).toContain('mcp.yaml has "alpha": node alpha.js');
    expect(planned.stdout).toMatch(/refused +legacy/);
    expect(planned.stdout).toContain('old HTTP+SSE transport');
    expect(planned.stdout).not.toContain('ghp_cli_import_secret');
    expect(planned.stderr).toContain('run it again with --yes');
    expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
  });

  it("a cloned repository's .vscode/mcp.json: the plan shows the folder and every variable, flags a preload, and no escape sequence of it reaches the terminal", async () => {
    const { file, cli, home: dir } = home(HAND_WRITTEN);
    const project = path.join(dir, 'cloned');
    fs.mkdirSync(path.join(project, '.vscode'), { recursive: true });
    const config = path.join(project, '.vscode', 'mcp.json');
    const hidden = '\x1b[2K\rnode server.js';
    fs.writeFileSync(
      config,
      JSON.stringify({
        servers: {
          helper: {
            type: 'stdio',
            command: 'node',
            args: ['server.js', hidden],
            cwd: '${workspaceFolder}',
            env: { NODE_OPTIONS: '--require ./.vscode/hook.js', API_TOKEN: 'tok_cli_import', LOG: 'info' },
          },
        },
      }),
    );
    const planned = await cli('mcp', 'import', config);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toContain('add      helper  node server.js "\\u001b[2K\\rnode server.js"');
    expect(planned.stdout).toContain(`folder: ${project}`);
    expect(planned.stdout).toContain('env NODE_OPTIONS="--require ./.vscode/hook.js"  (decides which code runs)');
    expect(planned.stdout).toContain('env API_TOKEN=•••• (kept in the key store)');
    expect(planned.stdout).toContain('env LOG=info');
    expect(planned.stdout).toMatch(/and from the host: HOME, LOGNAME, PATH/);
    expect(planned.stdout).toContain('WARNING: NODE_OPTIONS is set to "--require ./.vscode/hook.js": it decides which code the server runs');
    expect(planned.stdout).not.toContain('\x1b');
    expect(planned.stdout).not.toContain('tok_cli_import');
    expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
  });

  it('flags every variable that changes which code is downloaded, trusted or run, with its reason; plain ones pass', async () => {
    const { file, cli, home: dir } = home(HAND_WRITTEN);
    // Each variable, and the words of the reason the plan must give for it.
    const flagged: Record<string, [value: string, reason: string]> = {
      npm_config_registry: ['https://registry.evil.example/', "npm's settings"],
      NPM_CONFIG_USERCONFIG: ['/tmp/evil.npmrc', "npm's settings"],
      UV_INDEX_URL: ['https://pypi.evil.example/simple', 'the index Python packages'],
      UV_EXTRA_INDEX_URL: ['https://pypi.evil.example/simple', 'the index Python packages'],
      PIP_INDEX_URL: ['https://pypi.evil.example/simple', 'the index Python packages'],
      PIP_EXTRA_INDEX_URL: ['https://pypi.evil.example/simple', 'the index Python packages'],
      GIT_SSH_COMMAND: ['ssh -o ProxyCommand=/tmp/evil', 'a program git runs'],
      GIT_CONFIG_COUNT: ['1', 'a program git runs'],
      GIT_CONFIG_KEY_0: ['core.fsmonitor', 'a program git runs'],
      NODE_EXTRA_CA_CERTS: ['/tmp/evil-ca.pem', 'which certificates are trusted'],
      SSL_CERT_FILE: ['/tmp/evil-ca.pem', 'which certificates are trusted'],
      NODE_OPTIONS: ['--import /tmp/evil.mjs', "the interpreter's options"],
      LD_PRELOAD: ['/tmp/evil.so', 'a library loaded into the server'],
      PYTHONPATH: ['/tmp/evil', 'where modules are found'],
      PATH: ['/tmp/evil-bin:/usr/bin', 'the folders its command'],
    };
    const plain = { LOG_LEVEL: 'debug', GITHUB_TOKEN: 'ghp_plain_secret', npm_config__authToken: 'npm_plain_secret', HTTPS_PROXY: 'http://127.0.0.1:3128' };
    const config = path.join(dir, 'claude_desktop_config.json');
    const env = Object.fromEntries([...Object.entries(flagged).map(([name, [value]]) => [name, value]), ...Object.entries(plain)]);
    fs.writeFileSync(config, JSON.stringify({ mcpServers: { fetcher: { command: 'npx', args: ['-y', 'some-mcp-server'], env } } }, null, 2));
    const planned = await cli('mcp', 'import', config);
    expect(planned.code).toBe(1);
    const warnings = planned.stdout.split('\n').filter((line) => line.trim().startsWith('WARNING: '));
    for (const [name, [value, reason]] of Object.entries(flagged)) {
      const shown = /^[^\s"']+$/.test(value) ? value : JSON.stringify(value);
      expect(planned.stdout).toContain(`env ${name}=${shown}  (decides which code runs)`);
      expect(warnings.filter((line) => line.includes(`WARNING: ${name} is set to ${shown}: it decides which code the server runs`) && line.includes(reason))).toHaveLength(1);
    }
    expect(warnings).toHaveLength(Object.keys(flagged).length);
    const envLines = planned.stdout.split('\n').map((line) => line.trim());
    for (const name of Object.keys(plain)) {
      const line = envLines.find((l) => l.startsWith(`env ${name}=`));
      expect(line, name).toBeDefined();
      expect(line, name).not.toContain('(decides which code runs)');
    }
    expect(planned.stdout).not.toContain('plain_secret');
    expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
  });

  it('a config nested deeper than any client writes is refused with its code and place, mcp.yaml untouched', async () => {
    const { file, cli, home: dir } = home(HAND_WRITTEN);
    const config = path.join(dir, 'deep.json');
    const depth = 200_000;
    fs.writeFileSync(config, `{"mcpServers": {"a": {"command": "x", "env": {"K": ${'['.repeat(depth)}${']'.repeat(depth)}}}}}`);
    const run = await cli('mcp', 'import', config, '--yes');
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain('IMPORT_TOO_DEEP');
    expect(`${run.stdout}${run.stderr}`).not.toContain('RangeError');
    expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
  });

  it('with --yes imports what it can: the conflict skipped (or renamed), the token in the key store, comments kept', async () => {
    const { file, cli, home: dir } = home(HAND_WRITTEN);
    const config = path.join(dir, 'claude_desktop_config.json');
    fs.writeFileSync(config, JSON.stringify(claude));
    const imported = await cli('--json', 'mcp', 'import', config, '--yes');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json().result).toEqual({ added: ['filesystem', 'github'], replaced: [], renamed: [], skipped: ['alpha'], refused: ['legacy'] });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# My servers; ChatOS must keep this comment.');
    expect(text).toContain('GITHUB_PERSONAL_ACCESS_TOKEN: { secret: github.env.GITHUB_PERSONAL_ACCESS_TOKEN }');
    expect(text).not.toContain('ghp_cli_import_secret');
    expect(fs.readFileSync(path.join(dir, 'chatos', 'secrets.json'), 'utf8')).toContain('ghp_cli_import_secret');
    expect((await cli('mcp', 'list')).stdout).not.toContain('ghp_cli_import_secret');

    const again = await cli('mcp', 'import', config, '--yes', '--on-conflict', 'rename');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('imported into mcp.yaml: 0 added, 3 renamed, 1 refused');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^ {2}alpha-2:\n {4}command: uvx/m);
  });

  it('a file that is not a config: a problem with its line, exit 1', async () => {
    const { cli, home: dir } = home();
    const config = path.join(dir, 'broken.json');
    fs.writeFileSync(config, '{\n  "mcpServers": { "a": }\n}');
    const result = await cli('mcp', 'import', config, '--yes');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('IMPORT_NOT_JSON');
    expect(result.stderr).toContain(`${config}:2:`);
  });
});

describe('an alias bomb in mcp.yaml (issue 25)', () => {
  it('is refused with its file, line and fix: chatos mcp list answers, and edits wait until it is fixed', async () => {
    const bomb = aliasBomb(12);
    const { file, cli } = home(bomb);
    const listed = await cli('mcp', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    const [problem] = listed.stderr.split('\nerror: ').filter((text) => text.includes('YAML_ALIAS_EXPANSION'));
    expect(problem).toMatch(/:\d+: its aliases repeat too much: by the alias at line \d+/);
    expect(problem).toContain(file);
    expect(problem).toContain('fix: write the values out');
    expect(listed.stderr).not.toContain('Invalid string length');
    const added = await cli('mcp', 'add', 'other', '--command', 'node');
    expect(added.code).toBe(1);
    expect(added.stderr).toContain('YAML_ALIAS_EXPANSION');
    expect(fs.readFileSync(file, 'utf8')).toBe(bomb);
  });
});

describe('chatos mcp test', () => {
  it('starts a real stdio server and lists its tools; a program that is not there is said so, with the fix', async () => {
    const { cli } = home();
    expect((await cli('mcp', 'add', 'chat', '--command', process.execPath, '--arg', CHAT_SERVER)).code).toBe(0);
    const ok = await cli('mcp', 'test', 'chat');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok: chat started in \d+ ms, speaks MCP 2025-11-25 \(initialize\), and lists \d+ tool\(s\):/);
    expect(ok.stdout).toContain('rendezvous');
    const json = await cli('--json', 'mcp', 'test', 'chat');
    expect(json.json()).toMatchObject({ name: 'chat', ok: true, tools: expect.arrayContaining([expect.objectContaining({ name: 'sleep' })]) });

    expect((await cli('mcp', 'add', 'gone', '--command', 'no-such-program-chatos-test')).code).toBe(0);
    const failed = await cli('mcp', 'test', 'gone');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('[SERVER_START_FAILED SPAWN_FAILED]');
    expect(failed.stderr).toMatch(/fix: install no-such-program-chatos-test .*servers\.gone\.command/);
  });

  it('connects to a real streamable HTTP server; one that is not listening is said so', async () => {
    const port = await startHttpEverything();
    const { cli } = home();
    expect((await cli('mcp', 'add', 'remote', '--url', `http://127.0.0.1:${port}/mcp`)).code).toBe(0);
    const ok = await cli('--json', 'mcp', 'test', 'remote');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().tools.map((t: { name: string }) => t.name)).toContain('echo');
    expect((await cli('mcp', 'add', 'closed', '--url', 'http://127.0.0.1:9/mcp')).code).toBe(0);
    const failed = await cli('mcp', 'test', 'closed');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('HTTP_CONNECT_FAILED');
  });

  it('templates: the bundled memory server is added in one step and starts', async () => {
    const { cli } = home();
    const listed = await cli('--json', 'mcp', 'templates');
    expect(listed.json().templates.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(['filesystem', 'memory', 'git']));
    // The listing tags a bundled server once; its description does not say it again.
    const memoryLine = (await cli('mcp', 'templates')).stdout.split('\n').find((line) => line.trim().startsWith('memory '));
    expect(memoryLine?.match(/installed with ChatOS/g)).toHaveLength(1);
    const added = await cli('mcp', 'add', 'memory', '--template', 'memory');
    expect(added.code, added.stderr).toBe(0);
    const tested = await cli('--json', 'mcp', 'test', 'memory');
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.json().tools.map((t: { name: string }) => t.name)).toContain('create_entities');
  });
});

describe('an edit from the CLI reaches a running chatos serve', () => {
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.stop();
    serve = undefined;
  });

  it('serve lists a server chatos mcp add wrote, without a restart', async () => {
    const { home: dir, cli } = home(HAND_WRITTEN);
    serve = await startServe(['--home', dir]);
    const names = async () => {
      const response = await fetch(`${serve!.origin}/api`, {
        method: 'POST',
        headers: { authorization: `Bearer ${serve!.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'servers.list', params: {} }),
      });
      return ((await response.json()) as { result: { servers: { id: string }[] } }).result.servers.map((s) => s.id);
    };
    expect(await names()).toContain('chatos::alpha');
    expect((await cli('mcp', 'add', 'everything', '--command', process.execPath, '--arg', EVERYTHING_SERVER)).code).toBe(0);
    await until('serve to pick up the new server', async () => ((await names()).includes('chatos::everything') ? true : undefined));
  });
});
