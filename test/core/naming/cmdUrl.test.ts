import { describe, expect, it } from 'vitest';
import { formatCmdUrl, parseCmdUrl } from '../../../src/core/naming/cmdUrl.js';

describe('formatCmdUrl / parseCmdUrl round trip', () => {
  // [command, args, the exact url]
  const cases: [string, string[], string][] = [
    ['node', ['/plugins/p/mcp/server.mjs'], 'cmd://node /plugins/p/mcp/server.mjs'],
    ['node', [], 'cmd://node'],
    ['node', ['/a b/server.mjs', '--name', 'two words'], 'cmd://node "/a b/server.mjs" --name "two words"'],
    ['node', ['say "hi"'], 'cmd://node "say \\"hi\\""'],
    ['node', ['C:\\plugins\\p\\server.mjs'], 'cmd://node "C:\\\\plugins\\\\p\\\\server.mjs"'],
    ['node', ['', 'x', ''], 'cmd://node "" x ""'],
    ['node', ['a', '&&', 'rm', '-rf', '/', '|', 'cat'], 'cmd://node a && rm -rf / | cat'],
    ['node', ['$HOME', '`id`', ';', "'q'"], "cmd://node $HOME `id` ; 'q'"],
    ['node', ['tab\there', 'new\nline'], 'cmd://node "tab\\there" "new\\nline"'],
    ['my node', ['x'], 'cmd://"my node" x'],
    ['node', ['数据库 客户端', 'ü'], 'cmd://node "数据库 客户端" ü'],
    ['node', ['\\'], 'cmd://node "\\\\"'],
    ['node', ['"'], 'cmd://node "\\""'],
  ];

  it.each(cases)('%s %j', (command, args, url) => {
    expect(formatCmdUrl(command, args)).toBe(url);
    expect(parseCmdUrl(url)).toEqual({ command, args });
  });
});

describe('parseCmdUrl of urls written by other hosts', () => {
  it.each([
    ['cmd://node /opt/p/server.mjs --port 3000', 'node', ['/opt/p/server.mjs', '--port', '3000']],
    ['cmd://node    a\t\tb  ', 'node', ['a', 'b']],
    ['cmd://npx -y @scope/server@1.2.3', 'npx', ['-y', '@scope/server@1.2.3']],
    ['cmd://node C:\\plugins\\p\\server.mjs', 'node', ['C:\\plugins\\p\\server.mjs']],
    ['cmd://node a"b', 'node', ['a"b']],
    ['cmd://python3 -m srv && echo | x', 'python3', ['-m', 'srv', '&&', 'echo', '|', 'x']],
    ['cmd://node "quoted arg" bare', 'node', ['quoted arg', 'bare']],
  ])('%s', (url, command, args) => {
    expect(parseCmdUrl(url)).toEqual({ command, args });
  });
});

describe('parseCmdUrl errors', () => {
  it.each([
    ['http://127.0.0.1/mcp', /not a cmd:\/\/ url/],
    ['CMD://node x', /not a cmd:\/\/ url/],
    ['cmd://', /names no command/],
    ['cmd://   ', /names no command/],
    ['cmd://""', /names no command/],
    ['cmd://node "unterminated', /unterminated quote/],
    ['cmd://node "ends in an escaped quote\\"', /unterminated quote/],
  ])('%j', (url, error) => {
    expect(() => parseCmdUrl(url)).toThrow(error);
  });
});
