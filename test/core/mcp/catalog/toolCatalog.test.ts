import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildCatalog, CatalogToolSchema, fileOfServer, type CatalogEntry } from '../../../../src/core/mcp/catalog/toolCatalog.js';
import type { ServerDefinition } from '../../../../src/shared/mcp.js';
import { testServerDefinition } from '../../../helpers/serverDefinition.js';

const MCP_YAML = '/home/u/.chatos/chatos/mcp.yaml';

const server = testServerDefinition;

const pluginServer = (name: string, over: Partial<ServerDefinition> = {}) => server(name, { id: `git_app::${name}`, providerAppId: 'git_app', origin: 'plugin', ...over });

function tool(name: string, over: Partial<Tool> = {}): Tool {
  return { name, description: `${name} tool`, inputSchema: { type: 'object', properties: {} }, ...over };
}

const names = (entries: CatalogEntry[], reserved: string[] = []) => buildCatalog(entries, reserved).tools.map((t) => t.name);

describe('buildCatalog', () => {
  it('the Playwright example of docs/rules/mcp-yaml.md#tool-names-and-transforms: filtered on raw names, then prefixed', () => {
    const playwright = server('playwright', { tools: { whitelist: ['browser_*', 'page_*'], blacklist: ['*_unsafe'] }, transform: [{ prefix: 'playwright_' }] });
    const result = buildCatalog([{ server: playwright, tools: ['browser_click', 'browser_snapshot', 'eval_unsafe', 'browser_eval_unsafe', 'install'].map((n) => tool(n)) }], [], {
      fileOf: fileOfServer(MCP_YAML),
    });
    expect(result.tools.map((t) => [t.name, t.rawName])).toEqual([
      ['playwright_browser_click', 'browser_click'],
      ['playwright_browser_snapshot', 'browser_snapshot'],
      ['playwright_browser_eval_unsafe', 'browser_eval_unsafe'], // the whitelist overrides the blacklist
      ['playwright_install', 'install'], // on neither list: kept when a blacklist is set
    ]);
    expect(result.problems).toEqual([
      {
        severity: 'warning',
        code: 'TOOL_FILTERED',
        file: MCP_YAML,
        path: 'servers.playwright.tools.blacklist',
        message: 'tool "eval_unsafe" of server "playwright" (chatos::playwright) is not offered: it matches the blacklist pattern "*_unsafe" and no whitelist pattern',
        hint: 'add a whitelist pattern matching "eval_unsafe" to offer it',
      },
    ]);
  });

  it('default naming is mcp_<normalize(server)>_<tool>', () => {
    expect(names([{ server: pluginServer('com.example.git.status'), tools: [tool('log')] }])).toEqual(['mcp_com_example_git_status_log']);
  });

  it('a catalog tool carries its server, description and schemas, and parses as CatalogToolSchema', () => {
    const s = server('fs');
    const [entry] = buildCatalog([{ server: s, tools: [tool('read', { title: 'Read', annotations: { readOnlyHint: true } })] }], []).tools;
    expect(entry).toEqual({
      name: 'mcp_fs_read',
      rawName: 'read',
      serverId: 'chatos::fs',
      serverName: 'fs',
      description: 'read tool',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
    });
    expect(CatalogToolSchema.parse(entry)).toEqual(entry);
  });

  it('a tool without a description gets an empty one', () => {
    const [entry] = buildCatalog([{ server: server('s'), tools: [{ name: 'x', inputSchema: { type: 'object' } }] }], []).tools;
    expect(entry!.description).toBe('');
    expect('outputSchema' in entry! || 'annotations' in entry!).toBe(false);
  });

  it('input and output schemas pass through unchanged, rich JSON Schema included', () => {
    const inputSchema = {
      type: 'object' as const,
      properties: {
        mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
        n: { type: 'integer', minimum: 0, exclusiveMaximum: 10, multipleOf: 2 },
        pick: { oneOf: [{ const: 1 }, { type: 'array', prefixItems: [{ type: 'string' }], items: false }] },
        extra: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, propertyNames: { pattern: '^[a-z-]+$' }, additionalProperties: false },
      },
      required: ['mode'],
      $defs: { unused: { not: { type: 'null' } } },
      additionalProperties: false,
    };
    const outputSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const before = JSON.stringify({ inputSchema, outputSchema });
    const [entry] = buildCatalog([{ server: server('s'), tools: [tool('x', { inputSchema, outputSchema })] }], []).tools;
    expect(entry!.inputSchema).toBe(inputSchema);
    expect(entry!.outputSchema).toBe(outputSchema);
    expect(JSON.stringify({ inputSchema: entry!.inputSchema, outputSchema: entry!.outputSchema })).toBe(before);
  });

  it('disabled tools are dropped with a notice pointing at disabledTools', () => {
    const result = buildCatalog([{ server: server('s', { disabledTools: ['delete'] }), tools: [tool('read'), tool('delete')] }], [], { fileOf: fileOfServer(MCP_YAML) });
    expect(result.tools.map((t) => t.rawName)).toEqual(['read']);
    expect(result.problems).toEqual([
      expect.objectContaining({ severity: 'notice', code: 'TOOL_DISABLED', path: 'servers.s.disabledTools', message: 'tool "delete" of server "s" (chatos::s) is switched off' }),
    ]);
  });

  it('disabledTools names raw tools, not final names', () => {
    expect(names([{ server: server('s', { disabledTools: ['mcp_s_delete'] }), tools: [tool('delete')] }])).toEqual(['mcp_s_delete']);
  });

  it('a disabled server offers nothing', () => {
    const result = buildCatalog([{ server: server('s', { disabled: true }), tools: [tool('a'), tool('b')] }], []);
    expect(result.tools).toEqual([]);
    expect(result.problems).toEqual([expect.objectContaining({ severity: 'notice', code: 'SERVER_DISABLED' })]);
  });

  // [rule, server, raw tool, code, path]
  const dropped: [string, ServerDefinition, string, string, string][] = [
    ['not in the whitelist', server('s', { tools: { whitelist: ['read_*', 'keep_*'], blacklist: [] } }), 'write_file', 'TOOL_FILTERED', 'servers.s.tools.whitelist'],
    ['blacklisted', server('s', { tools: { whitelist: [], blacklist: ['write_*'] } }), 'write_file', 'TOOL_FILTERED', 'servers.s.tools.blacklist'],
    ['switched off', server('s', { disabledTools: ['write_file'] }), 'write_file', 'TOOL_DISABLED', 'servers.s.disabledTools'],
    ['an invalid raw name', server('s'), 'write.file', 'TOOL_NAME_INVALID', 'servers.s.tools'],
    ['an invalid raw name, with a transform', server('s', { transform: [{ prefix: 'p_' }] }), 'write file', 'TOOL_NAME_INVALID', 'servers.s.tools'],
    ['a final name too long by default', server('s'), 'w'.repeat(60), 'TOOL_NAME_INVALID', 'servers.s.tools'],
    ['a final name made invalid by the transform', server('s', { transform: [{ prefix: { remove: 'write', add: '' } }] }), 'write', 'TOOL_NAME_INVALID', 'servers.s.transform'],
    ['a reserved name', server('admin', { transform: [{ prefix: 'mcp_' }] }), 'release', 'TOOL_NAME_COLLISION', 'servers.admin.transform'],
  ];
  it.each(dropped)('a tool %s is dropped with a problem saying why', (_rule, s, raw, code, path) => {
    const result = buildCatalog([{ server: s, tools: [tool(raw), tool('keep_me')] }], ['mcp_release'], { fileOf: fileOfServer(MCP_YAML) });
    expect(result.tools.map((t) => t.rawName)).toEqual(['keep_me']);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ code, file: MCP_YAML, path });
    expect(result.problems[0]!.message).toContain(`"${raw}"`);
    expect(result.problems[0]!.hint).toBeTruthy();
  });

  it('an invalid name is never repaired', () => {
    const result = buildCatalog([{ server: server('s'), tools: [tool('read.file')] }], []);
    expect(result.tools).toEqual([]);
    expect(result.problems[0]!.message).toContain('does not rename tools implicitly');
  });

  it('a collision keeps the first tool (entries order) and names both tools and servers', () => {
    const a = server('a', { transform: [{ prefix: 'x_' }] });
    const b = pluginServer('b', { transform: [{ prefix: 'x_' }] });
    const result = buildCatalog(
      [
        { server: a, tools: [tool('search', { description: 'from a' })] },
        { server: b, tools: [tool('search', { description: 'from b' }), tool('open')] },
      ],
      [],
      { fileOf: fileOfServer(MCP_YAML) },
    );
    expect(result.tools.map((t) => [t.name, t.serverId, t.description])).toEqual([
      ['x_search', 'chatos::a', 'from a'],
      ['x_open', 'git_app::b', 'open tool'],
    ]);
    expect(result.problems).toEqual([
      {
        severity: 'warning',
        code: 'TOOL_NAME_COLLISION',
        file: 'git_app::b', // not an mcp.yaml server: the problem is filed under its id
        path: '',
        message: 'tool "search" of server "b" (git_app::b) is not offered: its name "x_search" is already taken by tool "search" of server "a" (chatos::a)',
        hint: expect.any(String),
      },
    ]);
  });

  it('the order of entries decides who keeps a contested name', () => {
    const a = server('a', { transform: [{ prefix: 'x_' }] });
    const b = server('b', { transform: [{ prefix: 'x_' }] });
    const first = (entries: CatalogEntry[]) => buildCatalog(entries, []).tools.map((t) => t.serverId);
    expect(
      first([
        { server: a, tools: [tool('t')] },
        { server: b, tools: [tool('t')] },
      ]),
    ).toEqual(['chatos::a']);
    expect(
      first([
        { server: b, tools: [tool('t')] },
        { server: a, tools: [tool('t')] },
      ]),
    ).toEqual(['chatos::b']);
  });

  it('a held name stays its holder’s: another server’s tool is refused, even when the holder is not among the entries', () => {
    const a = server('a', { transform: [{ prefix: 'x_' }] });
    const b = server('b', { transform: [{ prefix: 'x_' }] });
    const holderOf = (name: string) => (name === 'x_t' ? { server: b, rawName: 't' } : undefined);
    const result = buildCatalog(
      [
        { server: a, tools: [tool('t'), tool('only_a')] },
        { server: b, tools: [tool('t')] },
      ],
      [],
      { holderOf },
    );
    expect(result.tools.map((t) => `${t.name}@${t.serverId}`)).toEqual(['x_only_a@chatos::a', 'x_t@chatos::b']);
    expect(result.problems.map((p) => p.message)).toEqual(['tool "t" of server "a" (chatos::a) is not offered: its name "x_t" is already taken by tool "t" of server "b" (chatos::b)']);
    // The holder need not be offered to this caller: the name is still not a's.
    const alone = buildCatalog([{ server: a, tools: [tool('t')] }], [], { holderOf });
    expect(alone.tools).toEqual([]);
    expect(alone.problems.map((p) => p.message)).toEqual(['tool "t" of server "a" (chatos::a) is not offered: its name "x_t" is already taken by tool "t" of server "b" (chatos::b)']);
    // A reserved name is the host's whoever holds it.
    const m = server('m', { transform: [{ prefix: 'mcp_' }] });
    expect(buildCatalog([{ server: m, tools: [tool('release')] }], ['mcp_release'], { holderOf: () => ({ server: m, rawName: 'release' }) }).tools).toEqual([]);
  });

  it('a transform that maps two raw names to one keeps the first listed', () => {
    const s = server('s', { transform: [{ prefix: { remove: 'old_', add: '' } }] });
    const result = buildCatalog([{ server: s, tools: [tool('old_read'), tool('read')] }], []);
    expect(result.tools.map((t) => t.rawName)).toEqual(['old_read']);
    expect(result.problems[0]!.message).toContain('already taken by tool "old_read" of server "s"');
  });

  it('reserved names are taken before any server', () => {
    const result = buildCatalog([{ server: server('admin', { transform: [{ prefix: 'mcp_' }] }), tools: [tool('release'), tool('status')] }], ['mcp_release']);
    expect(result.tools.map((t) => t.name)).toEqual(['mcp_status']);
    expect(result.problems[0]).toMatchObject({ code: 'TOOL_NAME_COLLISION', file: 'chatos::admin', message: expect.stringContaining('already taken by a tool of the host') });
  });

  it('a collision is checked on final names: different servers, same raw name, default naming, no clash', () => {
    expect(
      names([
        { server: server('a'), tools: [tool('search')] },
        { server: server('b'), tools: [tool('search')] },
      ]),
    ).toEqual(['mcp_a_search', 'mcp_b_search']);
  });

  it('names are case-sensitive when checking collisions', () => {
    expect(names([{ server: server('s', { transform: [{ prefix: '' }] }), tools: [tool('Read'), tool('read')] }])).toEqual(['Read', 'read']);
  });

  it('a dropped tool does not take its name', () => {
    const a = server('a', { transform: [{ prefix: 'x_' }], tools: { whitelist: ['other'], blacklist: [] } });
    const b = server('b', { transform: [{ prefix: 'x_' }] });
    expect(
      names([
        { server: a, tools: [tool('t'), tool('other')] },
        { server: b, tools: [tool('t')] },
      ]),
    ).toEqual(['x_other', 'x_t']);
  });

  it('without fileOf, problems are filed under the server id; fileOfServer sends mcp.yaml servers to the file', () => {
    const entries: CatalogEntry[] = [
      { server: server('y', { disabledTools: ['t'] }), tools: [tool('t')] },
      { server: pluginServer('p', { disabledTools: ['t'] }), tools: [tool('t')] },
    ];
    expect(buildCatalog(entries, []).problems.map((p) => [p.file, p.path])).toEqual([
      ['chatos::y', 'servers.y.disabledTools'],
      ['git_app::p', ''],
    ]);
    expect(buildCatalog(entries, [], { fileOf: fileOfServer(MCP_YAML) }).problems.map((p) => p.file)).toEqual([MCP_YAML, 'git_app::p']);
  });

  it('filters see the raw name even when a transform renames it', () => {
    const s = server('pw', { transform: [{ prefix: 'pw_' }], tools: { whitelist: [], blacklist: ['pw_*'] } });
    expect(names([{ server: s, tools: [tool('click')] }])).toEqual(['pw_click']);
  });
});
