import { describe, expect, it } from 'vitest';
import { canonicalDefinitionJson, definitionFromRegistry } from '../../../../src/core/mcp/config/serverDefinition.js';
import { ServerDefinitionSchema } from '../../../../src/shared/mcp.js';
import { RegistryMcpServerSchema, type RegistryMcpServer, type RegistrySource } from '../../../../src/shared/registry.js';

function row(url: string, source: RegistrySource = { kind: 'host' }, extra: Partial<RegistryMcpServer> = {}): RegistryMcpServer {
  return RegistryMcpServerSchema.parse({ id: 'git_app::git.status', providerAppId: 'git_app', name: 'git.status', url, source, ...extra });
}

describe('definitionFromRegistry', () => {
  it('a cmd:// url runs over stdio with its argv and the row env', () => {
    const result = definitionFromRegistry(row('cmd://node "/plugins/my git/server.mjs" --verbose', { kind: 'host' }, { env: { LOG: 'debug' } }));
    expect(result).toEqual({
      ok: true,
      definition: {
        id: 'git_app::git.status',
        name: 'git.status',
        providerAppId: 'git_app',
        origin: 'host',
        category: 'external',
        transport: { kind: 'stdio', command: 'node', args: ['/plugins/my git/server.mjs', '--verbose'], env: { LOG: 'debug' } },
        trulyStateless: false,
        tools: { whitelist: [], blacklist: [] },
        transform: [],
        allowMain: false,
        allowSub: true,
        timeoutMs: 60_000,
        permissions: [],
        disabledTools: [],
        disabled: false,
        meta: {},
      },
    });
    expect(result.ok && ServerDefinitionSchema.safeParse(result.definition).success).toBe(true);
  });

  it.each(['http://127.0.0.1:3000/mcp', 'https://mcp.example.com/mcp'])('%s connects over streamable HTTP', (url) => {
    expect(definitionFromRegistry(row(url))).toMatchObject({ ok: true, definition: { transport: { kind: 'streamable_http', url, headers: {} } } });
  });

  it.each([
    ['a websocket url', 'ws://127.0.0.1:3000', 'WebSocket url'],
    ['an unreadable url', 'not a url', 'is not a valid url'],
    ['a cmd:// url with an open quote', 'cmd://node "unterminated', 'unterminated'],
    ['a cmd:// url with no command', 'cmd://  ', 'no command'],
  ])('%s is refused with a reason', (_name, url, fragment) => {
    const result = definitionFromRegistry(row(url));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(fragment);
  });

  // [source, origin]
  const origins: [RegistrySource, string][] = [
    [{ kind: 'host' }, 'host'],
    [{ kind: 'app-db', file: '/h/git_app/admin.db' }, 'app-db'],
    [{ kind: 'defaults', file: '/app/defaults/git_app.json' }, 'defaults'],
    [{ kind: 'plugin', pluginId: 'com.example.git', appId: 'status', pluginDir: '/p/git' }, 'plugin'],
  ];
  it.each(origins)('source %j gives origin %s', (source, origin) => {
    const result = definitionFromRegistry(row('cmd://node x.mjs', source));
    expect(result.ok && result.definition.origin).toBe(origin);
    expect(result.ok && 'plugin' in result.definition).toBe(source.kind === 'plugin');
  });

  it('bundled defaults are built-in tools; every other registry source is external', () => {
    expect(definitionFromRegistry(row('cmd://node x.mjs', { kind: 'defaults', file: '/app/defaults/providers/aide/servers.json' }))).toMatchObject({ ok: true, definition: { category: 'builtin' } });
    for (const source of [{ kind: 'host' }, { kind: 'app-db', file: '/h/aide/admin.db' }, { kind: 'plugin', pluginId: 'p', appId: 'a', pluginDir: '/p' }] as RegistrySource[]) {
      expect(definitionFromRegistry(row('cmd://node x.mjs', source))).toMatchObject({ ok: true, definition: { category: 'external' } });
    }
  });

  it('a plugin row names its plugin (trust is checked against it before starting)', () => {
    const result = definitionFromRegistry(row('cmd://node x.mjs', { kind: 'plugin', pluginId: 'com.example.git', appId: 'status', pluginDir: '/p/git' }));
    expect(result.ok && result.definition.plugin).toEqual({ pluginId: 'com.example.git', appId: 'status', pluginDir: '/p/git' });
  });

  it('allowMain/allowSub come from the row; enabled: false disables', () => {
    const result = definitionFromRegistry(row('cmd://node x.mjs', { kind: 'host' }, { allowMain: true, allowSub: false, enabled: false }));
    expect(result).toMatchObject({ ok: true, definition: { allowMain: true, allowSub: false, disabled: true } });
  });

  it('extras fill what a row does not carry; meta defaults to the row callMeta', () => {
    const extras = {
      meta: { workdir: '/data', chatos: { uiApp: { pluginId: 'p' } } },
      category: 'builtin' as const,
      timeoutMs: 5000,
      trulyStateless: true,
      permissions: [{ pattern: 'git_*', level: 'read' as const }],
      disabledTools: ['push'],
      disabled: true,
    };
    expect(definitionFromRegistry(row('cmd://node x.mjs'), { ...extras, cwd: '/p/git' })).toMatchObject({
      ok: true,
      definition: { ...extras, transport: { kind: 'stdio', cwd: '/p/git' } },
    });
    expect(definitionFromRegistry(row('cmd://node x.mjs', { kind: 'host' }, { callMeta: { a: 1 } }))).toMatchObject({ ok: true, definition: { meta: { a: 1 } } });
  });
});

describe('canonicalDefinitionJson', () => {
  it.each([
    [{ b: 1, a: { d: 2, c: 3 } }, { a: { c: 3, d: 2 }, b: 1 }, true],
    [{ a: [1, 2] }, { a: [2, 1] }, false],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [{ a: null }, { a: undefined }, false],
  ])('%j vs %j: equal is %s', (a, b, equal) => {
    expect(canonicalDefinitionJson(a) === canonicalDefinitionJson(b)).toBe(equal);
  });
});
