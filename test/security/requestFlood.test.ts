import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFUSAL_WINDOW_MS } from '../../src/core/audit/refusalTally.js';
import type { AuditRecord } from '../../src/shared/audit.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../helpers/gatewayHost.js';
import { stderrLine } from '../helpers/serverStderr.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { TestScheduler } from '../helpers/testScheduler.js';

/**
 * An idle server may ask nothing, and each request it is refused costs it
 * nothing: 16,000 sampling and 16,000 elicitation requests, each refused
 * and each written to the audit (4 MB a file, two files), rotated it twice
 * in about ten seconds and took the server's own earlier call out of
 * `chatos audit` and the History. Refusals are recorded once per server,
 * method and code a minute, with their count (docs/rules/gateway.md#audit).
 */

const FLOOD_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'floodServer.mjs');
const PER_METHOD = 16_000;
const METHODS = ['sampling/createMessage', 'elicitation/create'];

describe('an idle server flooding the host with requests', { timeout: 300_000 }, () => {
  it('has its refusals recorded once a minute with their count, and the call before them stays in the audit', async () => {
    const scheduler = new TestScheduler();
    const trigger = path.join(tempDir('chatos-flood-'), 'flood-now');
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { flood: { transport: 'stdio', command: process.execPath, args: [FLOOD_SERVER, trigger, String(PER_METHOD)] } }), {
      scheduler,
    });
    expect(textOf((await host.tools.call(caller('conv-f'), 'mcp_flood_hello', {})).result)).toBe('hi');

    // Its call has returned: the server is idle when it floods.
    fs.writeFileSync(trigger, '');
    expect(await stderrLine(host, 'chatos::flood', 'flood answered:', 240_000)).toBe(`flood answered: ${2 * PER_METHOD} refused of ${2 * PER_METHOD}`);
    const refusals = (method: string) => host.audit.query({ tool: method, decision: 'refused' }).filter((record) => record.serverId === 'chatos::flood');
    const counted = (records: AuditRecord[]) => records.reduce((sum, record) => sum + (record.count ?? 1), 0);

    // The first refusal of each method was written at once; the rest are counted.
    for (const method of METHODS) expect(refusals(method).map((r) => [r.reason, r.count])).toEqual([['IDLE_SERVER', undefined]]);
    // The minute ends: the count is written as one record, with the last refusal's words.
    scheduler.advance(REFUSAL_WINDOW_MS);
    for (const method of METHODS) {
      const records = refusals(method);
      expect(records.map((r) => [r.reason, r.count])).toEqual([
        ['IDLE_SERVER', PER_METHOD - 1],
        ['IDLE_SERVER', undefined],
      ]);
      expect(counted(records)).toBe(PER_METHOD);
      expect(records[0]!.error).toContain('server "chatos::flood" has no tool call in flight');
    }

    // The server's own call before the flood is still there for `chatos audit` and the History.
    expect(host.audit.query({ tool: 'mcp_flood_hello' })).toEqual([expect.objectContaining({ serverId: 'chatos::flood', outcome: 'ok', conversationId: 'conv-f' })]);
  });
});
