import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImport, type ImportContext } from '../../../../src/core/mcp/admin/importConfig.js';

/** Other clients' MCP configs read into a plan (pure: text in, plan out). */

const context = (over: Partial<ImportContext> = {}): ImportContext => ({ existing: new Map(), homeDir: '/home/me', storeSecrets: true, ...over });
const byName = (reading: ReturnType<typeof readImport>, sourceName: string) => reading.candidates.find((c) => c.entry.sourceName === sourceName)!;

describe('Claude Desktop (mcpServers)', () => {
  const text = JSON.stringify({
    mcpServers: {
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_x', LOG_LEVEL: 'info' } },
      'old remote': { url: 'http://127.0.0.1:8000/sse' },
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
    },
  });

  it('plans each server: adds, a conflict with what mcp.yaml has, a refused SSE url, a name made valid, a token for the key store', () => {
    const reading = readImport(text, context({ existing: new Map([['memory', 'node /x/memory.js']]) }));
    expect(reading.format).toBe('mcpServers');
    expect(reading.problems).toEqual([]);
    expect(byName(reading, 'filesystem').entry).toMatchObject({ name: 'filesystem', status: 'add', transport: 'stdio', launch: 'npx -y @modelcontextprotocol/server-filesystem /Users/me/Desktop' });
    const github = byName(reading, 'github');
    expect(github.input!.env).toEqual([
      { key: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: { kind: 'secret', value: 'ghp_x' } },
      { key: 'LOG_LEVEL', value: { kind: 'text', text: 'info' } },
    ]);
    expect(github.entry.notes.map((n) => n.code)).toEqual(['IMPORT_VALUE_STORED']);
    expect(JSON.stringify(github.entry)).not.toContain('ghp_x');
    const remote = byName(reading, 'old remote');
    expect(remote.entry).toMatchObject({ name: 'old_remote', status: 'refused', reason: { code: 'IMPORT_TRANSPORT_UNSUPPORTED' } });
    expect(remote.entry.reason!.message).toContain('old HTTP+SSE transport');
    expect(remote.input).toBeUndefined();
    expect(byName(reading, 'memory').entry).toMatchObject({ status: 'conflict', conflict: { existingLaunch: 'node /x/memory.js', suggestedName: 'memory-2' } });
  });

  it('without storeSecrets a token stays text', () => {
    expect(byName(readImport(text, context({ storeSecrets: false })), 'github').input!.env[0]).toEqual({ key: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: { kind: 'text', text: 'ghp_x' } });
  });
});

describe("VS Code's mcp.json (servers, with type)", () => {
  const text = `{
  // comments and trailing commas, as VS Code writes them
  "inputs": [{ "type": "promptString", "id": "github-token", "password": true }],
  "servers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "\${input:github-token}" } },
    "local": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js"], "cwd": "\${workspaceFolder}", "env": { "HOME_COPY": "\${env:HOME}" }, "envFile": "\${workspaceFolder}/.env" },
    "legacy": { "type": "sse", "url": "http://localhost:3001/sse" },
    "mixed": { "type": "http", "url": "http://localhost:3002/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
  },
}`;
  const file = path.join('/work/project', '.vscode', 'mcp.json');

  it('reads types, inputs as host variables, ${workspaceFolder} from the .vscode folder, and refuses sse and mixed values', () => {
    const reading = readImport(text, context({ fileName: file }));
    expect(reading.format).toBe('vscode');
    const github = byName(reading, 'github');
    expect(github.input).toMatchObject({ transport: 'streamable_http', url: 'https://api.githubcopilot.com/mcp/', headers: [{ key: 'Authorization', value: { kind: 'env', name: 'GITHUB_TOKEN' } }] });
    expect(github.entry.notes.map((n) => n.code)).toContain('IMPORT_INPUT_AS_ENV');
    const local = byName(reading, 'local');
    expect(local.input).toMatchObject({
      transport: 'stdio',
      command: 'node',
      args: ['/work/project/server.js'],
      cwd: '/work/project',
      env: [{ key: 'HOME_COPY', value: { kind: 'env', name: 'HOME' } }],
    });
    expect(local.entry.notes.map((n) => n.code)).toContain('IMPORT_ENVFILE_IGNORED');
    expect(byName(reading, 'legacy').entry).toMatchObject({ status: 'refused', reason: { code: 'IMPORT_TRANSPORT_UNSUPPORTED' } });
    expect(byName(reading, 'mixed').entry).toMatchObject({ status: 'refused', reason: { code: 'IMPORT_VALUE_MIXED' } });
  });

  it('${workspaceFolder} outside a .vscode folder is refused with the reason', () => {
    expect(byName(readImport(text, context({ fileName: '/tmp/mcp.json' })), 'local').entry).toMatchObject({ status: 'refused', reason: { code: 'IMPORT_VARIABLE_UNKNOWN' } });
  });

  it('reads mcp.servers of a settings.json', () => {
    expect(readImport(JSON.stringify({ mcp: { servers: { a: { command: 'x' } } } }), context()).candidates[0]!.entry).toMatchObject({ name: 'a', status: 'add' });
  });
});

describe("Cline's and Cursor's mcpServers", () => {
  it('Cline: disabled, a timeout in seconds, autoApprove noted, streamableHttp', () => {
    const reading = readImport(
      JSON.stringify({ mcpServers: { tools: { command: 'uvx', args: ['x'], disabled: true, timeout: 30, autoApprove: ['a'] }, remote: { type: 'streamableHttp', url: 'http://127.0.0.1:9000/mcp' } } }),
      context(),
    );
    expect(byName(reading, 'tools').input).toMatchObject({ disabled: true, timeoutMs: 30_000 });
    expect(byName(reading, 'tools').entry.notes.map((n) => n.code)).toContain('IMPORT_FIELD_IGNORED');
    expect(byName(reading, 'remote').input).toMatchObject({ transport: 'streamable_http', url: 'http://127.0.0.1:9000/mcp' });
  });

  it('Cursor: a url without type is streamable HTTP; a WebSocket url is refused', () => {
    const reading = readImport(JSON.stringify({ mcpServers: { web: { url: 'http://127.0.0.1:1/mcp', headers: { 'X-Api-Key': 'k1' } }, sock: { url: 'ws://127.0.0.1:1/mcp' } } }), context());
    expect(byName(reading, 'web').input).toMatchObject({ transport: 'streamable_http', headers: [{ key: 'X-Api-Key', value: { kind: 'secret', value: 'k1' } }] });
    expect(byName(reading, 'sock').entry).toMatchObject({ status: 'refused', reason: { code: 'IMPORT_URL_REFUSED' } });
  });

  it('two names that become one: the second is renamed; a name only a rename makes valid says so', () => {
    const reading = readImport(JSON.stringify({ mcpServers: { 'a b': { command: 'x' }, a_b: { command: 'y' } } }), context());
    expect(reading.candidates.map((c) => c.entry.name)).toEqual(['a_b', 'a_b-2']);
  });
});

describe('hostile and broken input', () => {
  it('a "__proto__" key is data: no command is inherited through it', () => {
    const reading = readImport('{"mcpServers": {"x": {"__proto__": {"command": "evil"}}, "__proto__": {"command": "y"}}}', context());
    expect(byName(reading, 'x').entry).toMatchObject({ status: 'refused', reason: { code: 'IMPORT_COMMAND_MISSING' } });
    // "__proto__" is no valid server name either: made one, imported as a plain entry.
    expect(byName(reading, '__proto__').entry).toMatchObject({ status: 'add', name: 'proto__' });
  });

  it('not JSON: one problem with the line and column', () => {
    const reading = readImport('{\n  "mcpServers": {\n    "a": { "command": }\n}', context({ fileName: '/tmp/c.json' }));
    expect(reading.problems).toEqual([expect.objectContaining({ code: 'IMPORT_NOT_JSON', file: '/tmp/c.json', line: 3 })]);
  });

  it('nested far deeper than any config: one coded problem with where, not a stack overflow', () => {
    const depth = 200_000;
    const text = `{"mcpServers": {"a": {"command": "x", "env": {"K": ${'['.repeat(depth)}${']'.repeat(depth)}}}}}`;
    const reading = readImport(text, context({ fileName: '/tmp/deep.json' }));
    expect(reading.candidates).toEqual([]);
    expect(reading.problems).toEqual([expect.objectContaining({ code: 'IMPORT_TOO_DEEP', file: '/tmp/deep.json', line: 1 })]);
    // Brackets inside strings and comments are text, not nesting.
    const quoted = readImport(`// ${'['.repeat(100)}\n{"mcpServers": {"a": {"command": "${'{'.repeat(100)}"}}}`, context());
    expect(quoted.problems).toEqual([]);
    expect(byName(quoted, 'a').entry.status).toBe('add');
  });

  it('each entry it cannot read is refused with its own code and fix, beside the ones it can', () => {
    const reading = readImport(
      JSON.stringify({
        mcpServers: {
          ok: { command: 'x' },
          '!!!': { command: 'x' },
          line: 'npx some-server',
          sock: { type: 'ws', url: 'http://127.0.0.1:1/mcp' },
          socket: { type: 'websocket', url: 'http://127.0.0.1:1/mcp' },
          nourl: { type: 'http' },
          argstext: { command: 'x', args: '-y some-server' },
          argsmaps: { command: 'x', args: [{ a: 1 }] },
          envlist: { command: 'x', env: ['A=1'] },
          envmap: { command: 'x', env: { A: { nested: true } } },
        },
      }),
      context(),
    );
    const reasons = Object.fromEntries(reading.candidates.map((c) => [c.entry.sourceName, c.entry.status === 'refused' ? c.entry.reason!.code : c.entry.status]));
    expect(reasons).toEqual({
      ok: 'add',
      '!!!': 'IMPORT_NAME_INVALID',
      line: 'IMPORT_ENTRY_NOT_A_MAP',
      sock: 'IMPORT_TRANSPORT_UNSUPPORTED',
      socket: 'IMPORT_TRANSPORT_UNSUPPORTED',
      nourl: 'IMPORT_URL_MISSING',
      argstext: 'IMPORT_ARGS_INVALID',
      argsmaps: 'IMPORT_ARGS_INVALID',
      envlist: 'IMPORT_VALUES_INVALID',
      envmap: 'IMPORT_VALUES_INVALID',
    });
    for (const { entry, input } of reading.candidates.filter((c) => c.entry.status === 'refused')) {
      expect(input, entry.sourceName).toBeUndefined();
      expect(entry.reason!.hint, entry.sourceName).not.toBe('');
    }
    expect(byName(reading, 'envmap').entry.reason!.message).toContain('env.A must be a string');
  });

  it('no server list: says which keys it looked for', () => {
    expect(readImport('{"other": {}}', context()).problems[0]).toMatchObject({ code: 'IMPORT_NO_SERVERS' });
  });
});

describe('the plan shows everything a server would run with (issue 25)', () => {
  // A cloned repository's .vscode/mcp.json: a preload in the env, an argument that rewrites the terminal line.
  const text = JSON.stringify({
    servers: {
      helper: {
        type: 'stdio',
        command: 'node',
        args: ['${workspaceFolder}/tools/server.js', '\x1b[2K\rnode safe.js', 'two words', '\u202egnp.exe'],
        cwd: '${workspaceFolder}',
        env: { NODE_OPTIONS: '--require ./.vscode/hook.js', LD_PRELOAD: '${env:PRELOAD}', DYLD_AUTH_SHIM: '/tmp/shim.dylib', API_TOKEN: 'tok_123', LOG: 'info' },
      },
      remote: { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: '${input:token}', 'X-Trace': 'a b' } },
    },
  });
  const file = path.join('/work/cloned', '.vscode', 'mcp.json');

  it('the program, each argument quoted with its control characters escaped, the folder, and every variable with its value or where it comes from', () => {
    const entry = byName(readImport(text, context({ fileName: file })), 'helper').entry;
    expect(entry.launch).toBe('node /work/cloned/tools/server.js "\\u001b[2K\\rnode safe.js" "two words" "\\u202egnp.exe"');
    expect(entry.run).toEqual({
      command: ['node', '/work/cloned/tools/server.js', '"\\u001b[2K\\rnode safe.js"', '"two words"', '"\\u202egnp.exe"'],
      cwd: '/work/cloned',
      env: [
        { name: 'NODE_OPTIONS', value: { kind: 'text', shown: '"--require ./.vscode/hook.js"' }, changesCode: true },
        { name: 'LD_PRELOAD', value: { kind: 'env', name: 'PRELOAD' }, changesCode: true },
        // A name that looks like a secret's but decides which code runs is shown, never hidden in the key store.
        { name: 'DYLD_AUTH_SHIM', value: { kind: 'text', shown: '/tmp/shim.dylib' }, changesCode: true },
        { name: 'API_TOKEN', value: { kind: 'secret' }, changesCode: false },
        { name: 'LOG', value: { kind: 'text', shown: 'info' }, changesCode: false },
      ],
      inherited: expect.arrayContaining(['HOME', 'PATH', 'LANG']),
      headers: [],
    });
    expect(entry.notes.filter((n) => n.code === 'IMPORT_ENV_CHANGES_CODE').map((n) => n.message)).toEqual([
      expect.stringMatching(/^NODE_OPTIONS is set to "--require \.\/\.vscode\/hook\.js": it decides which code the server runs/),
      expect.stringMatching(/^LD_PRELOAD is copied from the host's PRELOAD: it decides which code/),
      expect.stringMatching(/^DYLD_AUTH_SHIM is set to \/tmp\/shim\.dylib: /),
    ]);
    expect(JSON.stringify(entry)).not.toContain('tok_123');
    expect(JSON.stringify(entry)).not.toMatch(/[\u001b\u202e]/);
  });

  it('an HTTP server: its url and each header, a value from VS Code input as the host variable it becomes', () => {
    const entry = byName(readImport(text, context({ fileName: file })), 'remote').entry;
    expect(entry.run).toEqual({
      url: 'http://127.0.0.1:3000/mcp',
      env: [],
      inherited: [],
      headers: [
        { name: 'Authorization', value: { kind: 'env', name: 'TOKEN' } },
        { name: 'X-Trace', value: { kind: 'text', shown: '"a b"' } },
      ],
    });
  });
});
