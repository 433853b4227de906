import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticsReportSchema } from '../../src/shared/diagnostics.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** Issue 19: `chatos doctor [--json]`, every check, exit 1 when one fails. */
describe('chatos doctor', () => {
  it('reports every check with its facts, and exits 1 exactly when one fails', async () => {
    const home = tempDir();
    const run = await runCli(['doctor', '--json', '--home', home], { timeoutMs: 60_000 });
    const report = DiagnosticsReportSchema.parse(run.json());
    const ids = report.checks.map((c) => c.id);
    for (const id of ['app', 'electron', 'data-home', 'disk', 'path', 'headless-port', 'ui']) expect(ids).toContain(id);
    expect(report.checks.find((c) => c.id === 'app')!.facts.node).toBe(process.versions.node);
    expect(report.checks.find((c) => c.id === 'path')!.facts.path).toBe(process.env.PATH);
    expect(report.checks.find((c) => c.id === 'data-home')!.status).toBe('ok');
    expect(run.code).toBe(report.ok ? 0 : 1);
    expect(report.ok).toBe(report.checks.every((c) => c.status !== 'fail'));
  }, 300_000);

  it("a server whose command is nowhere fails with the fix, and doctor exits 1; a node server resolves to the app's own Node", async () => {
    const home = tempDir();
    const empty = tempDir();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'chatos', 'mcp.yaml'),
      `version: 1\nservers:\n  fetcher:\n    command: uvx\n    args: [mcp-server-fetch]\n    env: { PATH: ${JSON.stringify(empty)} }\n  noded:\n    command: node\n    args: [server.mjs]\n    env: { PATH: ${JSON.stringify(empty)} }\n`,
    );
    const json = await runCli(['doctor', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(json.code).toBe(1);
    const report = DiagnosticsReportSchema.parse(json.json());
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.id === 'server:chatos::fetcher')).toMatchObject({
      status: 'fail',
      summary: expect.stringContaining(`"uvx" was not found on PATH (searched: ${empty})`),
      fix: expect.stringContaining('install uvx'),
    });
    expect(report.checks.find((c) => c.id === 'server:chatos::noded')).toMatchObject({ status: 'ok', facts: { runtime: 'bundled', resolved: process.execPath } });

    const text = await runCli(['doctor', '--home', home], { timeoutMs: 60_000 });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^FAIL server:chatos::fetcher: /m);
    expect(text.stdout).toMatch(/^ {5}fix: install uvx/m);
    expect(text.stdout).toMatch(/\d+ ok, \d+ warning\(s\), [1-9]\d* failed/);
  }, 300_000);
});
