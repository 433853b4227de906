import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../src/core/modules/hostInternals.js';
import { DiagnosticsReportSchema } from '../../src/shared/diagnostics.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * `chatos mcp test` and `chatos doctor` say each server's protocol (docs/using/mcp-servers.md#protocol-eras):
 * the revision and the era, for a real server of each era over stdio (the v2 server package's, the v1 SDK's).
 */

const ERA_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'eraServer.mjs');

function writeEraServers(home: string): void {
  for (const era of ['modern', 'legacy']) fs.writeFileSync(path.join(home, `${era}.era`), era);
  writeMcpYaml(home, {
    modern: { transport: 'stdio', command: process.execPath, args: [ERA_SERVER, path.join(home, 'modern.era')] },
    legacy: { transport: 'stdio', command: process.execPath, args: [ERA_SERVER, path.join(home, 'legacy.era')] },
  });
}

describe("each server's protocol on the command line", { timeout: 60_000 }, () => {
  it('chatos mcp test says the revision and the era it spoke, in words and in JSON', async () => {
    const { home } = await startTestHost(({ home: dir }) => writeEraServers(dir));
    const modern = await runCli(['mcp', 'test', 'modern', '--home', home]);
    expect(modern.stdout).toMatch(/^ok: modern started in \d+ ms, speaks MCP 2026-07-28 \(stateless\), and lists 1 tool\(s\):/m);
    const legacy = await runCli(['mcp', 'test', 'legacy', '--home', home]);
    expect(legacy.stdout).toMatch(/^ok: legacy started in \d+ ms, speaks MCP 2025-11-25 \(initialize\), and lists 1 tool\(s\):/m);
    const json = await runCli(['--json', 'mcp', 'test', 'modern', '--home', home]);
    expect(json.json()).toMatchObject({ ok: true, protocol: { era: 'modern', version: '2026-07-28' } });
  });

  it('chatos doctor says what each server spoke at its last start, without starting it', async () => {
    const { host, home } = await startTestHost(({ home: dir }) => writeEraServers(dir));
    await host.tools.call(caller('conv-doctor'), 'mcp_modern_era', {}).then((called) => expect(textOf(called.result)).toMatch(/^modern server/));
    await host.tools.call(caller('conv-doctor'), 'mcp_legacy_era', {}).then((called) => expect(textOf(called.result)).toMatch(/^legacy server/));
    // What the host kept is on disk before doctor's own (read-only) host reads it.
    await internalsOf(host).store.flush();

    const report = DiagnosticsReportSchema.parse((await runCli(['doctor', '--json', '--home', home], { timeoutMs: 60_000 })).json());
    expect(report.checks.find((check) => check.id === 'protocol:chatos::modern')).toMatchObject({
      status: 'ok',
      summary: 'spoke MCP 2026-07-28 (stateless) at its last start',
      facts: { era: 'modern', version: '2026-07-28' },
    });
    expect(report.checks.find((check) => check.id === 'protocol:chatos::legacy')).toMatchObject({ summary: 'spoke MCP 2025-11-25 (initialize) at its last start' });
    const text = await runCli(['doctor', '--home', home], { timeoutMs: 60_000 });
    expect(text.stdout).toMatch(/^ok {3}protocol:chatos::modern: spoke MCP 2026-07-28 \(stateless\) at its last start$/m);
  });
});
