import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMcpYaml } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * A server whose tools/list holds tools that break the MCP schema of a tool
 * (test/fixtures/servers/badSchemaServer.mjs, a real stdio server, in the
 * shapes of anthropics/claude-code#88049 and modelcontextprotocol/servers#3051):
 * the SDK's own check refused the whole list, so one bad tool took every good
 * one with it. Each tool is checked on its own: the good ones are offered and
 * callable, each bad one is a warning naming the server, the tool and the field.
 */

const SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'badSchemaServer.mjs');

function homeWith(mode: 'one' | 'every') {
  const home = tempDir();
  writeMcpYaml(home, { shapes: { transport: 'stdio', command: process.execPath, args: [SERVER], env: { BAD_SCHEMA: mode } } });
  return home;
}

const toolsOf = (stdout: string) => stdout.split('\n').flatMap((line) => /^ {2}(mcp_shapes_\S+)/.exec(line)?.[1] ?? []);

describe('a server with tools whose schema is broken', { timeout: 120_000 }, () => {
  it('one bad tool among ten: the nine good ones are offered and run; the bad one is a warning naming server, tool and field', async () => {
    const home = homeWith('one');
    const listed = await runCli(['tools', '--app', 'chatos', '--home', home]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(toolsOf(listed.stdout)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india'].map((name) => `mcp_shapes_${name}`));
    expect(listed.stderr).toContain('tool "pick_shape" of server "shapes" (chatos::shapes) is not offered: its inputSchema.type is missing (expected "object")');
    expect(listed.stderr).not.toContain('alpha');

    const called = await runCli(['call', 'mcp_shapes_india', '--app', 'chatos', '--home', home]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('I am india');
  });

  it('every tool bad but one, and an entry that is no tool: each is named, the good one still offered', async () => {
    const home = homeWith('every');
    const listed = await runCli(['tools', '--app', 'chatos', '--json', '--home', home]);
    expect(listed.code, listed.stderr).toBe(0);
    const { tools, problems } = listed.json() as { tools: { name: string }[]; problems: { code: string; message: string; hint: string }[] };
    expect(tools.map((tool) => tool.name).filter((name) => name.startsWith('mcp_shapes_'))).toEqual(['mcp_shapes_still_good']);
    const schemaProblems = problems.filter((problem) => problem.code === 'TOOL_SCHEMA_INVALID');
    expect(schemaProblems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/^tool "read_file" of server "shapes" \(chatos::shapes\) is not offered: its inputSchema\.type is missing \(expected "object"\)$/),
      expect.stringMatching(/^tool "write_file" of server "shapes" \(chatos::shapes\) is not offered: its inputSchema\.type is missing \(expected "object"\)$/),
      expect.stringMatching(/^tool "list_directory" of server "shapes" \(chatos::shapes\) is not offered: its inputSchema\.type is missing \(expected "object"\)$/),
      expect.stringMatching(/^tool "#4 \(a tool without a name\)" of server "shapes" \(chatos::shapes\) is not offered: its entry is null, not a tool/),
    ]);
    expect(schemaProblems[0]!.hint).toContain('tools.blacklist');
  });
});
