import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { definitionsEqual, isRejectedServer, loadMcpConfig, resolveEnvValues, type McpConfigLoad } from '../../../../src/core/mcp/config/mcpConfigLoader.js';
import { ServerDefinitionSchema, type ServerDefinition } from '../../../../src/shared/mcp.js';
import type { Problem } from '../../../../src/shared/problems.js';
import { tempDir } from '../../../helpers/tempDir.js';

const HOST_ENV: NodeJS.ProcessEnv = { GITHUB_TOKEN: 'ghp_secret', EMPTY: '' };

/** Writes `text` to `<temp>/chatos/mcp.yaml` (the real layout) and loads it. */
function load(text: string, env: NodeJS.ProcessEnv = HOST_ENV): { file: string; result: McpConfigLoad } {
  const dir = path.join(tempDir(), 'chatos');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'mcp.yaml');
  fs.writeFileSync(file, text);
  return { file, result: loadMcpConfig(file, env) };
}

function loaded(text: string, env?: NodeJS.ProcessEnv) {
  const { file, result } = load(text, env);
  if (result.kind !== 'loaded') throw new Error(`expected a load, got ${JSON.stringify(result)}`);
  return { file, servers: result.servers, problems: result.problems };
}

function definition(text: string, key: string, env?: NodeJS.ProcessEnv): ServerDefinition {
  const entry = loaded(text, env).servers.get(key);
  if (!entry || isRejectedServer(entry)) throw new Error(`expected server ${key} to load, got ${JSON.stringify(entry)}`);
  return entry;
}

/** One server under a valid file, plus a good one that must load whatever happens to the first. */
function withServer(key: string, body: string): string {
  const indented = body
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return `version: 1\nservers:\n  ${key}:\n${indented}\n  good:\n    command: node\n`;
}

describe('loadMcpConfig: the file', () => {
  it('a missing file is "missing", not a failure (docs/rules/mcp-yaml.md#the-file: no file, no MCP servers)', () => {
    expect(loadMcpConfig(path.join(tempDir(), 'chatos', 'mcp.yaml'), HOST_ENV)).toEqual({ kind: 'missing' });
  });

  it('an unreadable path rejects the load with the path in the message', () => {
    const dir = tempDir(); // a folder where the file should be
    const result = loadMcpConfig(dir, HOST_ENV);
    expect(result).toMatchObject({ kind: 'rejected', problems: [{ severity: 'error', code: 'MCP_CONFIG_UNREADABLE', file: dir }] });
  });

  it('the full seed example loads into the definition the runtime uses', () => {
    const { file, servers, problems } = loaded(`version: 1
servers:
  playwright:
    truely-stateless: false
    transport: stdio
    command: npx
    args: ['-y', '@playwright/mcp@latest']
    tools:
      whitelist: ['browser_*', 'page_*']
      blacklist: ['*_unsafe']
    transform:
      - prefix: 'playwright_'
`);
    expect(problems).toEqual([]);
    expect(file.endsWith(path.join('chatos', 'mcp.yaml'))).toBe(true);
    const expected: ServerDefinition = {
      id: 'chatos::playwright',
      name: 'playwright',
      providerAppId: 'chatos',
      origin: 'mcp.yaml',
      category: 'external',
      transport: { kind: 'stdio', command: 'npx', args: ['-y', '@playwright/mcp@latest'], env: {} },
      trulyStateless: false,
      tools: { whitelist: ['browser_*', 'page_*'], blacklist: ['*_unsafe'] },
      transform: [{ prefix: 'playwright_' }],
      allowMain: true,
      allowSub: true,
      timeoutMs: 60_000,
      permissions: [],
      disabledTools: [],
      disabled: false,
      meta: {},
    };
    expect(servers.get('playwright')).toEqual(expected);
    expect(ServerDefinitionSchema.parse(servers.get('playwright'))).toEqual(expected);
  });

  it('keeps the servers in file order, keyed by the id written under servers', () => {
    const { servers } = loaded('version: 1\nservers:\n  zeta:\n    command: a\n  alpha:\n    command: b\n  mid:\n    command: c\n');
    expect([...servers.keys()]).toEqual(['zeta', 'alpha', 'mid']);
  });

  it.each([
    ['no servers key', 'version: 1\n'],
    ['an empty servers block', 'version: 1\nservers:\n'],
    ['an empty servers map', 'version: 1\nservers: {}\n'],
  ])('%s loads as no servers', (_name, text) => {
    expect(loaded(text)).toMatchObject({ problems: [], servers: new Map() });
  });
});

describe('loadMcpConfig: workspace errors reject the whole file', () => {
  // [rule, text, code, line, column, message fragment]
  const cases: [string, string, string, number | undefined, number | undefined, string][] = [
    ['bad YAML', 'version: 1\nservers:\n  a:\n    command: [unclosed\n', 'YAML_SYNTAX', 5, 1, 'invalid YAML at line 5'],
    ['bad YAML indentation', 'version: 1\nservers:\n  a:\n    command: x\n   args: []\n', 'YAML_SYNTAX', 5, 4, 'line 5'],
    ['missing version', 'servers:\n  a:\n    command: x\n', 'MCP_VERSION_MISSING', undefined, undefined, 'version 1'],
    ['an empty file', '', 'MCP_VERSION_MISSING', undefined, undefined, 'version 1'],
    ['version 2', 'version: 2\nservers: {}\n', 'MCP_VERSION_UNSUPPORTED', undefined, undefined, 'reads mcp.yaml version 1'],
    ['version as a string', 'version: "1"\nservers: {}\n', 'MCP_VERSION_UNSUPPORTED', undefined, undefined, 'version 1'],
    [
      'duplicate server ids',
      'version: 1\nservers:\n  a:\n    command: x\n  b:\n    command: y\n  a:\n    command: z\n',
      'MCP_DUPLICATE_SERVER_ID',
      7,
      3,
      'duplicate server id "a" at line 7, column 3',
    ],
    ['duplicate quoted server ids', 'version: 1\nservers:\n  "a":\n    command: x\n  "a":\n    command: z\n', 'MCP_DUPLICATE_SERVER_ID', 5, 3, 'duplicate server id "a"'],
    ['a duplicate key inside a server', 'version: 1\nservers:\n  a:\n    command: x\n    command: y\n', 'YAML_DUPLICATE_KEY', 5, 5, 'duplicate key "command"'],
    ['a duplicate env key', 'version: 1\nservers:\n  a:\n    command: x\n    env:\n      K: 1\n      K: 2\n', 'YAML_DUPLICATE_KEY', 7, 7, 'duplicate key "K"'],
    ['a duplicate top-level key', 'version: 1\nversion: 1\n', 'YAML_DUPLICATE_KEY', 2, 1, 'duplicate key "version"'],
    ['servers as a list', 'version: 1\nservers:\n  - a\n', 'MCP_SERVERS_NOT_A_MAP', undefined, undefined, 'not a list'],
    ['servers as a string', 'version: 1\nservers: playwright\n', 'MCP_SERVERS_NOT_A_MAP', undefined, undefined, 'not string'],
    ['a list at the top', '- version: 1\n', 'MCP_CONFIG_NOT_A_MAP', undefined, undefined, 'not a list'],
    ['a scalar at the top', 'hello\n', 'MCP_CONFIG_NOT_A_MAP', undefined, undefined, 'not string'],
  ];

  it.each(cases)('%s', (_rule, text, code, line, column, fragment) => {
    const { file, result } = load(text);
    expect(result.kind).toBe('rejected');
    if (result.kind !== 'rejected') return;
    const problem = result.problems.find((p) => p.code === code);
    expect(problem, JSON.stringify(result.problems)).toBeDefined();
    expect(problem).toMatchObject({ severity: 'error', file, ...(line === undefined ? {} : { line, column }) });
    if (line === undefined) expect(problem!.line).toBeUndefined();
    expect(problem!.message).toContain(fragment);
    expect(problem!.hint).toBeTruthy();
  });

  it('a duplicate server id names its JSON path', () => {
    const { result } = load('version: 1\nservers:\n  a:\n    command: x\n  a:\n    command: z\n');
    expect(result).toMatchObject({ kind: 'rejected', problems: [{ path: 'servers.a' }] });
  });

  it('the hint names the supported version', () => {
    const { result } = load('version: 3\n');
    expect(result).toMatchObject({ kind: 'rejected', problems: [{ code: 'MCP_VERSION_UNSUPPORTED', path: 'version', hint: expect.stringContaining('version: 1') }] });
  });
});

describe('loadMcpConfig: per-server errors reject only that server', () => {
  // [rule, server key, body, code, JSON path]
  const cases: [string, string, string, string, string][] = [
    ['sse transport', 'web', 'transport: sse\nurl: http://127.0.0.1:3000/sse', 'MCP_TRANSPORT_UNSUPPORTED', 'servers.web.transport'],
    ['an unknown transport', 'web', 'transport: websocket\nurl: ws://127.0.0.1:3000', 'MCP_TRANSPORT_UNSUPPORTED', 'servers.web.transport'],
    ['stdio without a command', 's', 'transport: stdio\nargs: [x]', 'MCP_COMMAND_MISSING', 'servers.s.command'],
    ['streamable_http without a url', 'h', 'transport: streamable_http', 'MCP_URL_MISSING', 'servers.h.url'],
    ['a url that is not http(s)', 'h', 'transport: streamable_http\nurl: ftp://example.com/mcp', 'MCP_URL_INVALID', 'servers.h.url'],
    ['a url that is not a url', 'h', 'url: not a url', 'MCP_URL_INVALID', 'servers.h.url'],
    ['neither command nor url', 'n', 'args: [x]', 'MCP_TRANSPORT_MISSING', 'servers.n.transport'],
    ['both command and url without a transport', 'b', 'command: node\nurl: http://127.0.0.1/mcp', 'MCP_TRANSPORT_AMBIGUOUS', 'servers.b.transport'],
    ['a transform with a number', 't', 'command: node\ntransform:\n  - prefix: 1', 'MCP_TRANSFORM_INVALID', 'servers.t.transform[0]'],
    ['a transform of an unknown kind', 't', "command: node\ntransform:\n  - replace: 'x'", 'MCP_TRANSFORM_INVALID', 'servers.t.transform[0]'],
    ['a transform with two kinds in one item', 't', "command: node\ntransform:\n  - prefix: 'a_'\n    suffix: '_b'", 'MCP_TRANSFORM_INVALID', 'servers.t.transform[0]'],
    ['a prefix transform with an unknown key', 't', "command: node\ntransform:\n  - prefix: { drop: 'a_' }", 'MCP_TRANSFORM_INVALID', 'servers.t.transform[0].prefix'],
    ['a transform that is not a list', 't', "command: node\ntransform: { prefix: 'a_' }", 'MCP_TRANSFORM_INVALID', 'servers.t.transform'],
    ['an id with a space', 'bad id', 'command: node', 'MCP_SERVER_ID_INVALID', 'servers["bad id"]'],
    ['an id starting with "-"', '-lead', 'command: node', 'MCP_SERVER_ID_INVALID', 'servers["-lead"]'],
    ['an id with "::"', '"a::b"', 'command: node', 'MCP_SERVER_ID_INVALID', 'servers["a::b"]'],
    ['an id of 65 characters', 'a'.repeat(65), 'command: node', 'MCP_SERVER_ID_INVALID', `servers.${'a'.repeat(65)}`],
    ['a non-ASCII id', 'café', 'command: node', 'MCP_SERVER_ID_INVALID', 'servers["café"]'],
    ['args that are not a list', 's', 'command: node\nargs: --port 0', 'SCHEMA_INVALID_TYPE', 'servers.s.args'],
    ['inheritEnv that is neither true, false nor a list', 's', 'command: node\ninheritEnv: yes please', 'SCHEMA_INVALID_UNION', 'servers.s.inheritEnv'],
    ['inheritEnv naming a variable with "="', 's', 'command: node\ninheritEnv: [A=B]', 'SCHEMA_INVALID_FORMAT', 'servers.s.inheritEnv[0]'],
    ['a timeout in words', 's', 'command: node\ntimeout: 30s', 'SCHEMA_INVALID_TYPE', 'servers.s.timeout'],
    ['a zero timeout', 's', 'command: node\ntimeout: 0', 'SCHEMA_TOO_SMALL', 'servers.s.timeout'],
    ['a maximum total time in words', 's', 'command: node\nmaxTotalTimeout: 10min', 'SCHEMA_INVALID_TYPE', 'servers.s.maxTotalTimeout'],
    ['a maximum total time shorter than the timeout', 's', 'command: node\ntimeout: 5000\nmaxTotalTimeout: 1000', 'MCP_MAX_TOTAL_TIMEOUT_SHORT', 'servers.s.maxTotalTimeout'],
    ['a result cap too small to read', 's', 'command: node\nmaxResultChars: 10', 'SCHEMA_TOO_SMALL', 'servers.s.maxResultChars'],
    ['a result cap that is not a whole number', 's', 'command: node\nmaxResultChars: 5000.5', 'SCHEMA_INVALID_TYPE', 'servers.s.maxResultChars'],
    ['a permission level that does not exist', 's', "command: node\npermissions:\n  'browser_*': admin", 'SCHEMA_INVALID_VALUE', 'servers.s.permissions["browser_*"]'],
    ['allowMain that is not a boolean', 's', 'command: node\nallowMain: "yes"', 'SCHEMA_INVALID_TYPE', 'servers.s.allowMain'],
    ['an env value that is a list', 's', 'command: node\nenv:\n  A: [1]', 'SCHEMA_INVALID_UNION', 'servers.s.env.A'],
    // A name ends at "=" in the child's environment: this one would set NODE_OPTIONS past every check that reads names.
    ['an env name with "="', 's', "command: node\nenv:\n  'NODE_OPTIONS=--require ./x.js --title': y", 'SCHEMA_INVALID_KEY', 'servers.s.env["NODE_OPTIONS=--require ./x.js --title"]'],
  ];

  it.each(cases)('%s', (_rule, key, body, code, jsonPath) => {
    const { file, servers, problems } = loaded(withServer(key, body));
    const id = key.replace(/^"|"$/g, '');
    const entry = servers.get(id);
    expect(entry && isRejectedServer(entry), JSON.stringify(entry)).toBe(true);
    if (!entry || !isRejectedServer(entry)) return;
    const problem = entry.rejected.find((p) => p.code === code);
    expect(problem, JSON.stringify(entry.rejected)).toMatchObject({ severity: 'error', file, path: jsonPath });
    expect(problem!.message).toBeTruthy();
    expect(problem!.hint).toBeTruthy();
    // The load's list holds it too, and the other server still loads.
    expect(problems).toContainEqual(problem);
    expect(servers.get('good')).toMatchObject({ id: 'chatos::good', transport: { kind: 'stdio', command: 'node' } });
  });

  it('sse is pointed at streamable_http', () => {
    const entry = loaded(withServer('web', 'transport: sse\nurl: http://127.0.0.1:3000/sse')).servers.get('web') as { rejected: Problem[] };
    expect(entry.rejected).toHaveLength(1); // said once, not again by the schema
    expect(entry.rejected[0]!.message).toContain('"sse"');
    expect(entry.rejected[0]!.hint).toContain('transport: streamable_http');
  });

  // The definition does not depend on the environment (another process may have the variable): only a start here fails.
  it.each([
    ['an env copy', 'github', 'command: node\nenv:\n  GH_TOKEN:\n    env: GITHUB_PAT', 'servers.github.env.GH_TOKEN'],
    ['a header copy', 'h', 'url: http://127.0.0.1/mcp\nheaders:\n  Authorization:\n    env: GITHUB_PAT', 'servers.h.headers.Authorization'],
  ])('%s of an unset variable loads the server, with a warning naming it and its server', (_rule, key, body, jsonPath) => {
    const { servers, problems } = loaded(withServer(key, body));
    const entry = servers.get(key)!;
    expect(isRejectedServer(entry)).toBe(false);
    expect(entry).toMatchObject({ id: `chatos::${key}` });
    const warning = problems.find((p) => p.code === 'MCP_ENV_MISSING');
    expect(warning).toMatchObject({ severity: 'warning', path: jsonPath });
    expect(warning!.message).toContain('GITHUB_PAT');
    expect(warning!.message).toContain(`"${key}"`);
    expect(warning!.hint).toContain('GITHUB_PAT');
  });

  it('reports every missing variable, each at its key', () => {
    const { problems } = loaded(withServer('s', 'command: node\nenv:\n  A: { env: MISSING_A }\n  B: literal\n  C: { env: MISSING_C }'));
    expect(problems.filter((p) => p.code === 'MCP_ENV_MISSING').map((p) => [p.path, p.severity])).toEqual([
      ['servers.s.env.A', 'warning'],
      ['servers.s.env.C', 'warning'],
    ]);
  });

  it('a server with no settings is rejected on its own', () => {
    const { servers } = loaded('version: 1\nservers:\n  empty:\n  good:\n    command: node\n');
    expect(servers.get('empty')).toMatchObject({ rejected: [{ code: 'MCP_SERVER_NOT_A_MAP', path: 'servers.empty' }] });
    expect(isRejectedServer(servers.get('good')!)).toBe(false);
  });

  it('an invalid id suggests a valid one', () => {
    const entry = loaded(withServer('"my server!"', 'command: node')).servers.get('my server!') as { rejected: Problem[] };
    expect(entry.rejected[0]!.hint).toContain('"my_server_"');
  });

  it.each(['a', 'A1', 'my.server_1-x', '9lives', 'x'.repeat(64)])('id %s is valid', (key) => {
    expect(definition(withServer(key, 'command: node'), key).id).toBe(`chatos::${key}`);
  });
});

describe('loadMcpConfig: fields and defaults', () => {
  it('an http server keeps headers in their written form and its sessionId', () => {
    const def = definition(
      `version: 1
servers:
  remote:
    transport: streamable_http
    url: https://mcp.example.com/mcp
    sessionId: abc
    truely-stateless: true
    headers:
      Authorization:
        env: GITHUB_TOKEN
      X-Client-Name: chatos
`,
      'remote',
    );
    expect(def.transport).toEqual({ kind: 'streamable_http', url: 'https://mcp.example.com/mcp', sessionId: 'abc', headers: { Authorization: { env: 'GITHUB_TOKEN' }, 'X-Client-Name': 'chatos' } });
    expect(def.trulyStateless).toBe(true);
    expect(JSON.stringify(def)).not.toContain('ghp_secret');
  });

  it('an env copy stays a copy in the definition (resolved only at spawn time)', () => {
    const def = definition(withServer('s', 'command: node\nenv:\n  TOKEN: { env: GITHUB_TOKEN }\n  LEVEL: debug'), 's');
    expect(def.transport).toEqual({ kind: 'stdio', command: 'node', args: [], env: { TOKEN: { env: 'GITHUB_TOKEN' }, LEVEL: 'debug' } });
  });

  it('a variable set to the empty string counts as set', () => {
    expect(definition(withServer('s', 'command: node\nenv:\n  E: { env: EMPTY }'), 's').transport).toMatchObject({ env: { E: { env: 'EMPTY' } } });
  });

  it('the environment checked is the one given, not process.env', () => {
    const text = withServer('s', 'command: node\nenv:\n  P: { env: PATH }');
    expect(loaded(text, {}).problems.map((p) => p.code)).toContain('MCP_ENV_MISSING');
    expect(loaded(text, { PATH: '/bin' }).problems.map((p) => p.code)).not.toContain('MCP_ENV_MISSING');
  });

  it('a disabled server loads despite a missing variable: it never starts', () => {
    const def = definition(withServer('s', 'disabled: true\ncommand: node\nenv:\n  T: { env: NOT_SET_ANYWHERE }'), 's');
    expect(def.disabled).toBe(true);
  });

  it.each([
    ['stdio', 'command: node', 'stdio'],
    ['streamable_http', 'url: http://127.0.0.1:3000/mcp', 'streamable_http'],
  ])('transport is inferred as %s when only one of command/url is given', (_name, body, kind) => {
    expect(definition(withServer('s', body), 's').transport.kind).toBe(kind);
  });

  it('an explicit transport decides when both command and url are given, and the other is ignored with a warning', () => {
    const { servers, problems } = loaded(withServer('s', 'transport: stdio\ncommand: node\nurl: http://127.0.0.1/mcp'));
    expect((servers.get('s') as ServerDefinition).transport.kind).toBe('stdio');
    expect(problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'MCP_FIELD_IGNORED', path: 'servers.s.url' })]);
  });

  it.each([
    ['headers on stdio', 'command: node\nheaders: { A: b }', 'servers.s.headers'],
    ['sessionId on stdio', 'command: node\nsessionId: x', 'servers.s.sessionId'],
    ['args on http', 'url: http://h/mcp\nargs: [x]', 'servers.s.args'],
    ['env on http', 'url: http://h/mcp\nenv: { A: b }', 'servers.s.env'],
  ])('%s is ignored with a warning', (_name, body, jsonPath) => {
    const { servers, problems } = loaded(withServer('s', body));
    expect(isRejectedServer(servers.get('s')!)).toBe(false);
    expect(problems.map((p) => [p.code, p.path])).toEqual([['MCP_FIELD_IGNORED', jsonPath]]);
  });

  it('host fields: allowMain/allowSub default to true, timeout to 60000 ms, permissions keep their order', () => {
    const def = definition(
      withServer(
        's',
        `command: node
allowSub: false
timeout: 5000
disabledTools: [browser_close]
permissions:
  'browser_navigate': navigate
  'browser_*': confirm
  '*': read`,
      ),
      's',
    );
    expect(def).toMatchObject({
      allowMain: true,
      allowSub: false,
      timeoutMs: 5000,
      disabled: false,
      disabledTools: ['browser_close'],
      permissions: [
        { pattern: 'browser_navigate', level: 'navigate' },
        { pattern: 'browser_*', level: 'confirm' },
        { pattern: '*', level: 'read' },
      ],
    });
    expect(definition(withServer('s', 'command: node\nallowMain: false'), 's').allowMain).toBe(false);
    // The result cap is the server's when written, else left to the default (docs/rules/gateway.md#result-size).
    expect(definition(withServer('s', 'command: node\nmaxResultChars: 20000'), 's').maxResultChars).toBe(20_000);
    expect(definition(withServer('s', 'command: node'), 's').maxResultChars).toBeUndefined();
  });

  it('maxTotalTimeout: the longest a call that reports progress may run, left out unless written', () => {
    expect(definition(withServer('s', 'command: node\ntimeout: 5000\nmaxTotalTimeout: 900000'), 's')).toMatchObject({ timeoutMs: 5000, maxTotalTimeoutMs: 900_000 });
    expect(definition(withServer('s', 'command: node'), 's').maxTotalTimeoutMs).toBeUndefined();
  });

  it('a permission pattern that is an Object.prototype member is kept: losing "__proto__: confirm" would run that tool unasked', () => {
    const def = definition(withServer('s', `command: node\npermissions:\n  '__proto__': confirm\n  constructor: confirm\n  '*': read`), 's');
    expect(def.permissions).toEqual([
      { pattern: '__proto__', level: 'confirm' },
      { pattern: 'constructor', level: 'confirm' },
      { pattern: '*', level: 'read' },
    ]);
  });

  it('empty YAML blocks read as empty values', () => {
    const def = definition(withServer('s', 'command: node\nargs:\nenv:\ntools:\ntransform:\npermissions:\ndisabledTools:'), 's');
    expect(def).toMatchObject({ transport: { args: [], env: {} }, tools: { whitelist: [], blacklist: [] }, transform: [], permissions: [], disabledTools: [] });
  });

  it('every transform form is kept in order', () => {
    const def = definition(
      withServer('s', "command: node\ntransform:\n  - prefix: 'playwright_'\n  - prefix:\n      remove: 'stock_prefix_'\n      add: 'my_prefix_'\n  - suffix: '_playwright'"),
      's',
    );
    expect(def.transform).toEqual([{ prefix: 'playwright_' }, { prefix: { remove: 'stock_prefix_', add: 'my_prefix_' } }, { suffix: '_playwright' }]);
  });
});

describe('loadMcpConfig: unknown keys are warnings', () => {
  it.each([
    ['a typo at the top', 'version: 1\nserver: {}\n', 'server', 'servers'],
    ['a typo in a server', withServer('s', 'comand: node\ncommand: node'), 'servers.s.comand', 'command'],
    ['the usual spelling of truely-stateless', withServer('s', 'command: node\ntruly-stateless: true'), 'servers.s.truly-stateless', 'truely-stateless'],
    ['a typo under tools', withServer('s', "command: node\ntools:\n  whitelists: ['a']"), 'servers.s.tools.whitelists', 'whitelist'],
  ])('%s', (_name, text, jsonPath, suggestion) => {
    const { problems } = loaded(text);
    expect(problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'UNKNOWN_KEY', path: jsonPath, message: expect.stringContaining(`did you mean "${suggestion}"`) })]);
  });

  it('a server with only unknown-key warnings still loads', () => {
    const { servers } = loaded(withServer('s', 'command: node\nfavourite_colour: blue'));
    expect(isRejectedServer(servers.get('s')!)).toBe(false);
  });

  it('an unknown key in a transform is an error once, not also a warning', () => {
    const entry = loaded(withServer('t', "command: node\ntransform:\n  - prefix: 'a_'\n    suffix: '_b'")).servers.get('t') as { rejected: Problem[] };
    expect(entry.rejected.map((p) => p.severity)).toEqual(['error']);
  });

  it('the hint does not speak of plugin manifests', () => {
    const { problems } = loaded('version: 1\nzzz_unrelated: 1\n');
    expect(problems[0]!.hint).not.toContain('manifest');
    expect(problems[0]!.hint).toContain('remove "zzz_unrelated"');
  });
});

describe('resolveEnvValues', () => {
  // [values, host env, expected]
  const cases: [string, Record<string, string | { env: string }>, NodeJS.ProcessEnv, ReturnType<typeof resolveEnvValues>][] = [
    ['no values', {}, {}, { ok: true, values: {} }],
    ['literals stay literal', { A: 'x', B: '' }, { A: 'host' }, { ok: true, values: { A: 'x', B: '' } }],
    ['a copy reads the host variable', { NEW: { env: 'OLD' } }, { OLD: 'v' }, { ok: true, values: { NEW: 'v' } }],
    ['an empty host variable is set', { NEW: { env: 'OLD' } }, { OLD: '' }, { ok: true, values: { NEW: '' } }],
  ];
  it.each(cases)('%s', (_name, values, hostEnv, expected) => {
    expect(resolveEnvValues(values, hostEnv, 'chatos::s')).toEqual(expected);
  });

  it('lists each missing variable once, in order, and names the server', () => {
    const result = resolveEnvValues({ A: { env: 'X' }, B: { env: 'Y' }, C: { env: 'X' }, D: 'lit' }, { Z: '1' }, 'chatos::github');
    expect(result).toMatchObject({ ok: false, missing: ['X', 'Y'] });
    expect(!result.ok && result.message).toContain('chatos::github');
    expect(!result.ok && result.message).toContain('X, Y');
  });

  it('a copy of a variable named after an Object.prototype member is missing unless the host sets it', () => {
    const values = { A: { env: 'toString' }, B: { env: 'constructor' }, C: { env: '__proto__' } };
    expect(resolveEnvValues(values, process.env, 's')).toMatchObject({ ok: false, missing: ['toString', 'constructor', '__proto__'] });
    expect(resolveEnvValues(values, { toString: 't', constructor: 'c', ['__proto__']: 'p' }, 's')).toEqual({ ok: true, values: { A: 't', B: 'c', C: 'p' } });
  });

  it('a "__proto__" key stays a plain key', () => {
    const values = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    const result = resolveEnvValues(values, {}, 's');
    expect(result.ok && Object.keys(result.values)).toEqual(['__proto__']);
  });
});

describe('definitionsEqual', () => {
  const base = `version: 1
servers:
  s:
    command: node
    args: [a, b]
    env: { A: '1', B: { env: GITHUB_TOKEN } }
    tools: { whitelist: ['x*'], blacklist: ['*y'] }
    permissions: { 'x*': read }
`;
  it('the same server written with its keys in another order is equal', () => {
    const reordered = `servers:
  s:
    permissions: { 'x*': read }
    tools: { blacklist: ['*y'], whitelist: ['x*'] }
    env: { B: { env: GITHUB_TOKEN }, A: '1' }
    args: [a, b]
    command: node
version: 1
`;
    expect(definitionsEqual(definition(base, 's'), definition(reordered, 's'))).toBe(true);
  });

  it.each([
    ['the args order', base.replace('[a, b]', '[b, a]')],
    ['an env value', base.replace("A: '1'", "A: '2'")],
    ['a copy target', base.replace('env: GITHUB_TOKEN', 'env: EMPTY')],
    ['a filter', base.replace("['*y']", "['*z']")],
    ['the timeout', base.replace('command: node', 'command: node\n    timeout: 1000')],
    ['allowMain', base.replace('command: node', 'command: node\n    allowMain: false')],
    ['disabled', base.replace('command: node', 'command: node\n    disabled: true')],
    ['the transport', base.replace('command: node', 'command: node\n    transport: stdio\n    truely-stateless: true')],
  ])('a change to %s is not equal', (_name, changed) => {
    expect(definitionsEqual(definition(base, 's'), definition(changed, 's'))).toBe(false);
  });

  it('compares in canonical form: objects built in another key order are equal', () => {
    const a = definition(base, 's');
    const flipped = Object.fromEntries(Object.entries(a).reverse()) as ServerDefinition;
    flipped.transport = Object.fromEntries(Object.entries(a.transport).reverse()) as ServerDefinition['transport'];
    expect(Object.keys(flipped)[0]).toBe('meta');
    expect(definitionsEqual(a, flipped)).toBe(true);
    expect(definitionsEqual(a, { ...flipped, meta: { x: 1 } })).toBe(false);
  });
});
