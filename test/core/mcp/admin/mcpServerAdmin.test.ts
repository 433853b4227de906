import * as fs from 'node:fs';
import * as path from 'node:path';
import * as jsYaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../../src/core/host.js';
import { McpAdminError } from '../../../../src/core/mcp/admin/mcpAdminError.js';
import { EVERYTHING_SERVER, GATEWAY_SERVER, caller, isAlive, startTestHost, textOf, trustPlugin, waitUntil, writeGatewayPlugin } from '../../../helpers/gatewayHost.js';
import { writePlugin } from '../../../helpers/plugins.js';
import { repoRoot, tempDir } from '../../../helpers/tempDir.js';
import { internalsOf } from '../../../../src/core/modules/hostInternals.js';

/**
 * The user's MCP servers edited through the core (host.mcp.admin): the
 * file keeps its comments, a bad edit writes nothing, stored values reach
 * the server and nothing else, and "test connection" takes the path every
 * start takes.
 */

const HAND_WRITTEN = `# My MCP servers, written by hand.
version: 1

servers:
  # The reference server, for trying things.
  everything:
    command: node   # this Node
    args:
      - ${EVERYTHING_SERVER}
      - stdio
    tools:
      blacklist: ['*_unsafe']   # never these
    permissions:
      'get-env': confirm

  # A remote one.
  remote:
    url: http://127.0.0.1:9/mcp
    headers:
      # which team
      X-Team: blue
# the end
`;

function writeConfig(home: string, text: string): string {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

async function refusal(promise: Promise<unknown>): Promise<McpAdminError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpAdminError);
  return error as McpAdminError;
}

describe('editing mcp.yaml', () => {
  it('adds, edits and removes servers, keeping every comment, the order, and what the form does not edit', async () => {
    let file = '';
    const { host } = await startTestHost(({ home }) => void (file = writeConfig(home, HAND_WRITTEN)));
    await host.mcp.admin.add({ name: 'gateway', transport: 'stdio', command: process.execPath, args: [GATEWAY_SERVER, '2024-01-01'] });
    let text = fs.readFileSync(file, 'utf8');
    for (const comment of ['# My MCP servers, written by hand.', '# The reference server, for trying things.', '# this Node', '# never these', '# A remote one.', '# which team', '# the end'])
      expect(text).toContain(comment);
    expect([...text.matchAll(/^ {2}([a-z]+):/gm)].map((m) => m[1])).toEqual(['everything', 'remote', 'gateway']);
    // js-yaml (the loader) reads the date-like argument back as the string it is.
    expect((jsYaml.load(text) as any).servers.gateway.args).toEqual([GATEWAY_SERVER, '2024-01-01']);

    await host.mcp.admin.update('remote', {
      name: 'remote',
      transport: 'streamable_http',
      url: 'http://127.0.0.1:10/mcp',
      headers: [
        { key: 'X-Team', value: { kind: 'text', text: 'blue' } },
        { key: 'X-New', value: { kind: 'env', name: 'TEAM_TOKEN' } },
      ],
    });
    text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# which team\n      X-Team: blue\n      X-New: { env: TEAM_TOKEN }');
    expect(text).toContain('url: http://127.0.0.1:10/mcp');

    await host.mcp.admin.remove('everything');
    text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('everything:');
    for (const comment of ['# My MCP servers, written by hand.', '# A remote one.', '# which team', '# the end']) expect(text).toContain(comment);
    // The running host took each change at once.
    expect(host.mcp.definition('chatos::everything')).toBeUndefined();
    expect(host.mcp.definition('chatos::gateway')).toMatchObject({ transport: { kind: 'stdio', args: [GATEWAY_SERVER, '2024-01-01'] } });
  });

  it('an edit keeps the keys written by hand (tools, permissions) and is refused when it renames', async () => {
    let file = '';
    const { host } = await startTestHost(({ home }) => void (file = writeConfig(home, HAND_WRITTEN)));
    const view = await host.mcp.admin.update('everything', { name: 'everything', transport: 'stdio', command: 'node', args: [EVERYTHING_SERVER, 'stdio'], disabled: true });
    expect(view).toMatchObject({ disabled: true, otherKeys: ['tools', 'permissions'] });
    const entry = (jsYaml.load(fs.readFileSync(file, 'utf8')) as any).servers.everything;
    expect(entry).toMatchObject({ tools: { blacklist: ['*_unsafe'] }, permissions: { 'get-env': 'confirm' }, disabled: true });
    const renamed = await refusal(host.mcp.admin.update('everything', { name: 'other', transport: 'stdio', command: 'node' }));
    expect(renamed.fields).toEqual([expect.objectContaining({ path: 'name' })]);
  });

  it('sets which Node runs a node server, shows it, and takes it away again; a choice that is not one is refused by its field', async () => {
    let file = '';
    const { host } = await startTestHost(({ home }) => void (file = writeConfig(home, HAND_WRITTEN)));
    const form = { name: 'everything', transport: 'stdio' as const, command: 'node', args: [EVERYTHING_SERVER, 'stdio'] };
    const set = await host.mcp.admin.update('everything', { ...form, nodeRuntime: 'bundled' });
    expect(set).toMatchObject({ nodeRuntime: 'bundled', otherKeys: ['tools', 'permissions'] });
    expect((jsYaml.load(fs.readFileSync(file, 'utf8')) as any).servers.everything.nodeRuntime).toBe('bundled');
    expect(fs.readFileSync(file, 'utf8')).toContain('# this Node');
    expect((await host.mcp.admin.list()).servers.find((s) => s.name === 'everything')?.nodeRuntime).toBe('bundled');
    // An edit that does not name it keeps it; null takes it away (the default applies again).
    expect((await host.mcp.admin.update('everything', form)).nodeRuntime).toBe('bundled');
    const cleared = await host.mcp.admin.update('everything', { ...form, nodeRuntime: null });
    expect(cleared.nodeRuntime).toBeUndefined();
    expect((jsYaml.load(fs.readFileSync(file, 'utf8')) as any).servers.everything).not.toHaveProperty('nodeRuntime');
    const before = fs.readFileSync(file, 'utf8');
    const refused = await refusal(host.mcp.admin.add({ name: 'sometimes', transport: 'stdio', command: 'node', nodeRuntime: 'sometimes' }));
    expect(refused.fields.map((f) => f.path)).toEqual(['nodeRuntime']);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('a bad server is refused field by field with the fix, and the file is left byte for byte', async () => {
    let file = '';
    const { host } = await startTestHost(({ home }) => void (file = writeConfig(home, HAND_WRITTEN)));
    const cases: [unknown, string, RegExp][] = [
      [{ name: 'sock', transport: 'streamable_http', url: 'ws://127.0.0.1:1/mcp' }, 'url', /WebSocket/],
      [{ name: 'nocmd', transport: 'stdio' }, 'command', /must not be empty|no command/],
      [{ name: 'badenv', transport: 'stdio', command: 'x', env: [{ key: 'A=B', value: { kind: 'text', text: '1' } }] }, 'env[0].key', /not a variable name/],
      [{ name: 'rel', transport: 'stdio', command: 'x', cwd: 'relative/dir' }, 'cwd', /absolute/],
      [{ name: 'bad name!', transport: 'stdio', command: 'x' }, 'name', /letter or digit/],
      [{ name: 'everything', transport: 'stdio', command: 'x' }, 'name', /taken/],
      [{ name: 'nostore', transport: 'stdio', command: 'x', env: [{ key: 'T', value: { kind: 'secret' } }] }, 'env[0].value', /no value is stored/],
      [
        {
          name: 'twice',
          transport: 'stdio',
          command: 'x',
          env: [
            { key: 'A', value: { kind: 'text', text: '1' } },
            { key: 'A', value: { kind: 'text', text: '2' } },
          ],
        },
        'env[1].key',
        /given twice/,
      ],
      [{ name: 'hdrname', transport: 'streamable_http', url: 'http://127.0.0.1:9/mcp', headers: [{ key: 'X Team', value: { kind: 'text', text: 'blue' } }] }, 'headers[0].key', /not a header name/],
      [
        { name: 'hdrbreak', transport: 'streamable_http', url: 'http://127.0.0.1:9/mcp', headers: [{ key: 'X-Team', value: { kind: 'text', text: 'blue\r\nX-Injected: 1' } }] },
        'headers[0].value',
        /line break/,
      ],
    ];
    for (const [input, field, message] of cases) {
      const error = await refusal(host.mcp.admin.add(input));
      expect(error.fields.find((f) => f.path === field)?.message, `${JSON.stringify(input)} → ${field}`).toMatch(message);
      expect(fs.readFileSync(file, 'utf8')).toBe(HAND_WRITTEN);
    }
  });

  it('a file that does not load is not edited until it is fixed by hand', async () => {
    let file = '';
    const broken = 'version: 1\nservers:\n  a:\n    command: [unclosed\n';
    const { host } = await startTestHost(({ home }) => void (file = writeConfig(home, broken)));
    const error = await refusal(host.mcp.admin.add({ name: 'b', transport: 'stdio', command: 'x' }));
    expect(error.code).toBe('MCP_CONFIG_BROKEN');
    expect(error.problems[0]).toMatchObject({ code: 'YAML_SYNTAX' });
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);
  });

  it('nothing is imported into a file that does not load, and the file is left as it was', async () => {
    let file = '';
    const broken = 'version: 99\nservers:\n  a:\n    command: x\n';
    const { host } = await startTestHost(({ home }) => void (file = writeConfig(home, broken)));
    const config = JSON.stringify({ mcpServers: { b: { command: 'y' } } });
    for (const attempt of [async () => host.mcp.admin.planImport(config), () => host.mcp.admin.applyImport(config, undefined)]) {
      const error = await refusal(attempt());
      expect(error.code).toBe('MCP_CONFIG_BROKEN');
      expect(error.problems.length).toBeGreaterThan(0);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);
  });

  it('creates mcp.yaml when there is none, and two processes adding at once both land', async () => {
    const home = tempDir('chatos-admin-home-');
    const hosts = [0, 1].map(() => createHost({ home, appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() }));
    await Promise.all(hosts.map((h) => h.start()));
    try {
      await Promise.all(hosts.map((h, i) => h.mcp.admin.add({ name: `s${i}`, transport: 'stdio', command: 'x' })));
      const servers = (jsYaml.load(fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8')) as any).servers;
      expect(Object.keys(servers).sort()).toEqual(['s0', 's1']);
    } finally {
      await Promise.all(hosts.map((h) => h.dispose()));
    }
  });
});

describe('stored values', () => {
  it('reach the server when it starts, and nothing else: not mcp.yaml, not the view; they go with their server', async () => {
    const SECRET = 'tok-Zx81-stored-value';
    let home = '';
    const { host } = await startTestHost((dirs) => void (home = dirs.home));
    await host.mcp.admin.add({ name: 'ev', transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: [{ key: 'MY_TOKEN', value: { kind: 'secret', value: SECRET } }] });
    const file = path.join(home, 'chatos', 'mcp.yaml');
    expect(fs.readFileSync(file, 'utf8')).not.toContain(SECRET);
    expect(fs.readFileSync(file, 'utf8')).toContain('MY_TOKEN: { secret: ev.env.MY_TOKEN }');
    const view = await host.mcp.admin.get('ev');
    expect(view.env).toEqual([{ key: 'MY_TOKEN', value: { kind: 'secret', set: true } }]);
    expect(JSON.stringify(await host.mcp.admin.list())).not.toContain(SECRET);
    const { result } = await host.tools.call(caller('c-secret'), 'mcp_ev_get-env', {});
    expect(textOf(result)).toContain(SECRET);

    // An edit that leaves the value empty keeps the stored one.
    await host.mcp.admin.update('ev', { name: 'ev', transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: [{ key: 'MY_TOKEN', value: { kind: 'secret' } }] });
    expect(await internalsOf(host).secrets.get('mcp:ev.env.MY_TOKEN')).toBe(SECRET);
    expect(await host.mcp.admin.remove('ev')).toEqual({ removed: 'ev', storedValuesRemoved: 1, grantsRevoked: 0, agentsChanged: [] });
    expect(await internalsOf(host).secrets.get('mcp:ev.env.MY_TOKEN')).toBeUndefined();
  });
});

describe('removing a server', () => {
  it('takes its registration and the grants on it along, leaving no problem; one gone from the file by hand is missing', async () => {
    let file = '';
    const { host } = await startTestHost(({ home }) => void (file = writeConfig(home, HAND_WRITTEN)));
    expect(host.registry.getServer('chatos::everything')).toBeDefined();
    for (const app of ['aide', 'other']) internalsOf(host).registry.center.registerApp(app, 'test');
    expect(host.registry.grantMcpServerAccess('aide', 'chatos::everything')).toBe('created');
    expect(host.registry.grantMcpServerAccess('other', 'chatos::everything')).toBe('created');

    expect(await host.mcp.admin.remove('everything')).toEqual({ removed: 'everything', storedValuesRemoved: 0, grantsRevoked: 2, agentsChanged: [] });
    expect(host.registry.getServer('chatos::everything')).toBeUndefined();
    expect(host.registry.listGrants('server').filter((g) => g.targetId === 'chatos::everything')).toEqual([]);
    expect(host.registry.problems.filter((p) => p.code === 'REGISTRATION_MISSING')).toEqual([]);

    // Added again under the name, it is a new server: nothing was granted to it.
    await host.mcp.admin.add({ name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] });
    expect(host.registry.getServer('chatos::everything')?.missing).toBeUndefined();
    expect(host.registry.hasMcpServerAccess('aide', 'chatos::everything')).toBe(false);

    // What went missing without the user removing it (the entry deleted from the file by hand) keeps its grant, for Prune.
    host.registry.grantMcpServerAccess('aide', 'chatos::remote');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/ {2}# A remote one\.[\s\S]*?X-Team: blue\n/, ''));
    await host.mcp.reload();
    expect(host.registry.getServer('chatos::remote')?.missing).toBeDefined();
    expect(host.registry.problems.find((p) => p.code === 'REGISTRATION_MISSING')?.message).toContain('its 1 grant is kept');
  });

  it('leaves the agents that selected it: no agent keeps it picked, their other picks stay', async () => {
    const { host } = await startTestHost(({ home }) => void writeConfig(home, HAND_WRITTEN));
    const own = (ids: string[]) => [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ids }];
    host.agents.create({ id: 'both', name: 'Both', uiApps: own(['chatos::everything', 'chatos::remote']) });
    host.agents.create({ id: 'one', name: 'One', uiApps: own(['chatos::everything']) });
    host.agents.create({ id: 'other', name: 'Other', uiApps: own(['chatos::remote']) });

    expect((await host.mcp.admin.remove('everything')).agentsChanged.sort()).toEqual(['both', 'one']);
    const picks = (id: string) => host.agents.get(id)?.uiApps.flatMap((app) => app.mcpServerIds);
    expect([picks('both'), picks('one'), picks('other')]).toEqual([['chatos::remote'], [], ['chatos::remote']]);
    // So the agent reports nothing missing: the removed server is no longer among its picks.
    expect(host.agents.resolve(host.agents.get('one')!).problems.map((p) => p.code)).toEqual([]);
  });
});

describe('test connection', () => {
  it('a saved stdio server: its tools; a form not saved yet: the same, with its values filled in for the test only', async () => {
    const { host } = await startTestHost(
      ({ home }) => void writeConfig(home, `version: 1\nservers:\n  gw:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(GATEWAY_SERVER)}]\n`),
    );
    const saved = await host.mcp.admin.test({ name: 'gw' });
    expect(saved.ok && saved.tools.map((t) => t.name)).toContain('echo');
    const form = await host.mcp.admin.test({
      server: { name: 'draft', transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: [{ key: 'K', value: { kind: 'secret', value: 'v' } }] },
    });
    expect(form.ok && form.tools.map((t) => t.name)).toContain('get-env');
    expect(await internalsOf(host).secrets.get('mcp:draft.env.K')).toBeUndefined();
    // A test leaves no lease behind.
    expect(host.mcp.servers.snapshots().filter((s) => s.leases.length)).toEqual([]);
  });

  it('says exactly why a server did not start: the program, a missing variable, an invalid form, a timeout', async () => {
    const { host } = await startTestHost(() => {}, { env: { PATH: process.env.PATH } });
    const spawn = await host.mcp.admin.test({ server: { name: 'x', transport: 'stdio', command: 'no-such-program-zq' } });
    expect(spawn).toMatchObject({ ok: false, code: 'SERVER_START_FAILED', reason: 'SPAWN_FAILED', hint: expect.stringContaining('no-such-program-zq') });
    const env = await host.mcp.admin.test({ server: { name: 'x', transport: 'stdio', command: process.execPath, env: [{ key: 'T', value: { kind: 'env', name: 'NOT_SET_ANYWHERE_ZQ' } }] } });
    expect(env).toMatchObject({ ok: false, reason: 'ENV_MISSING' });
    expect(!env.ok && env.message).toContain('NOT_SET_ANYWHERE_ZQ');
    const invalid = await host.mcp.admin.test({ server: { name: 'x', transport: 'streamable_http', url: 'ws://127.0.0.1:1/' } });
    expect(invalid).toMatchObject({ ok: false, code: 'MCP_SERVER_INVALID', fields: [expect.objectContaining({ path: 'url' })] });
    // A program that never answers the handshake: ended when the test's time is up, not left running.
    const pidFile = path.join(tempDir(), 'pid');
    const silent = await host.mcp.admin.test(
      {
        server: { name: 'x', transport: 'stdio', command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`] },
      },
      1500,
    );
    expect(silent).toMatchObject({ ok: false, code: 'TEST_TIMEOUT' });
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await waitUntil(() => !isAlive(pid), `the silent server (pid ${pid}) to be ended`);
  });

  it('a stored value gone from the key store: SECRET_MISSING naming the value, with the fix, and the server is not started', async () => {
    const SECRET = 'tok-Qv55-gone';
    const { host } = await startTestHost(() => {});
    await host.mcp.admin.add({ name: 'ev', transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: [{ key: 'MY_TOKEN', value: { kind: 'secret', value: SECRET } }] });
    expect(await internalsOf(host).secrets.delete('mcp:ev.env.MY_TOKEN')).toBe(true);
    const result = await host.mcp.admin.test({ name: 'ev' });
    expect(result).toMatchObject({ ok: false, reason: 'SECRET_MISSING', hint: 'edit the server and enter the stored value again' });
    expect(!result.ok && result.message).toContain('ev.env.MY_TOKEN');
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("a plugin's server reads only its own stored values: another server's token named in its env is refused by name, never read", async () => {
    const TOKEN = 'tok-other-9Qx';
    const { host } = await startTestHost(({ pluginRoot }) => {
      const app = { id: 'main', name: 'main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', env: { STOLEN: { secret: 'ev.env.MY_TOKEN' } } } } };
      const files = { 'index.mjs': 'export function mount() {}\n', 'server.mjs': `import ${JSON.stringify(GATEWAY_SERVER)};\n` };
      writePlugin(pluginRoot, 'snoop', { manifestVersion: 1, id: 'com.example.snoop', name: 'snoop', version: '1.0.0', apps: [app] }, files);
    });
    // The user's own server keeps its token in the key store under a name anyone can guess.
    await host.mcp.admin.add({ name: 'ev', transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: [{ key: 'MY_TOKEN', value: { kind: 'secret', value: TOKEN } }] });
    trustPlugin(host, 'com.example.snoop');
    const result = await host.mcp.admin.test({ name: 'com.example.snoop::com.example.snoop.main' });
    expect(result).toMatchObject({ ok: false, code: 'SERVER_NOT_RUNNABLE' });
    expect(!result.ok && result.message).toContain('"ev.env.MY_TOKEN", which is not its own');
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it("a plugin's server is tested through the trust gate: refused until the plugin is trusted", async () => {
    const { host } = await startTestHost(({ pluginRoot }) => void writeGatewayPlugin(pluginRoot, 'com.example.gw', [{ appId: 'main' }]));
    const id = 'com.example.gw::com.example.gw.main';
    expect(await host.mcp.admin.test({ name: id })).toMatchObject({ ok: false, code: 'SERVER_NOT_RUNNABLE', hint: expect.stringContaining('trust') });
    trustPlugin(host, 'com.example.gw');
    const trusted = await host.mcp.admin.test({ name: id });
    expect(trusted.ok && trusted.tools.map((t) => t.name)).toContain('echo');
  });
});
