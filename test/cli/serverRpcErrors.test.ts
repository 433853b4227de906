import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMcpYaml } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * A server that answers `chatos call` with a JSON-RPC error instead of a
 * failed result: `chatos call` printed ChatOS's own JavaScript stack trace
 * (issue 41 item 6). The server's error is said in its words with its code,
 * exit 1, never a stack frame of ours or of the server's. Real stdio
 * servers: one built with fastmcp (its validation error), and one whose
 * errors are awkward (a stack in the message, a megabyte, terminal escapes
 * and a hostile `data`).
 */

const fixture = (name: string) => path.join(repoRoot, 'test', 'fixtures', 'servers', name);
/** A stack frame as V8 prints it, of ChatOS or of the server. */
const AT_FRAME = /^\s+at\s/m;

function home() {
  const dir = tempDir();
  writeMcpYaml(dir, {
    fast: { transport: 'stdio', command: process.execPath, args: [fixture('fastmcpServer.mjs')] },
    sized: { transport: 'stdio', command: process.execPath, args: [fixture('resultSizeServer.mjs')] },
    errs: { transport: 'stdio', command: process.execPath, args: [fixture('rpcErrorServer.mjs')] },
  });
  return dir;
}

const call = (dir: string, tool: string, args = '{}') => runCli(['call', tool, '--app', 'chatos', '--args', args, '--home', dir]);

describe('chatos call and a JSON-RPC error', { timeout: 120_000 }, () => {
  it("a fastmcp server's validation error: its words and code, exit 1, no stack", async () => {
    const run = await call(home(), 'mcp_fast_add', '{"a":"x","b":2}');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: call to add on "chatos::fast" failed with JSON-RPC error -32602: Tool 'add' parameter validation failed: a: Invalid input: expected number, received string.`);
    expect(run.stderr).not.toMatch(AT_FRAME);
    expect(run.stdout).toBe('');
  });

  it("a server's own stack trace in its message is left out; its words stay", async () => {
    const run = await call(home(), 'mcp_sized_stack_error');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: call to stack_error on "chatos::sized" failed with JSON-RPC error -32603: internal failure: Error: the database is locked\n    [stack trace left out]');
    expect(run.stderr).not.toMatch(AT_FRAME);
  });

  it('a message of a megabyte is cut, saying how long it was', async () => {
    const run = await call(home(), 'mcp_errs_huge');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('failed with JSON-RPC error -32000: start of a long story and then');
    expect(run.stderr).toContain("… (cut: the server's message has 990,029 characters)");
    expect(run.stderr.length).toBeLessThan(5_000);
  });

  it('terminal escapes are shown, not obeyed; a hostile data is never said nor read as ours', async () => {
    const run = await call(home(), 'mcp_errs_hostile');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('failed with JSON-RPC error -32050: refused\\u001b]52;c;cGF3bmVk\\u0007 \\u202eevil\\u202c words');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stderr).not.toMatch(AT_FRAME);
    expect(run.stderr).not.toContain('from data');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a -32042 with junk pages: the one url page is refused by its scheme; with none, the error is said as any other', async () => {
    const dir = home();
    const bad = await call(dir, 'mcp_errs_bad_pages');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('needs a page opened in a browser before this call (JSON-RPC error -32042); ChatOS refused the elicitation: the url\'s scheme "javascript:" is refused');
    const none = await call(dir, 'mcp_errs_no_pages');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error: call to no_pages on "chatos::errs" failed with JSON-RPC error -32042: open a page first');
    expect(`${bad.stderr}${none.stderr}`).not.toMatch(AT_FRAME);
  });
});
