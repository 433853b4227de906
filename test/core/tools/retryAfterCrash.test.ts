import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpRuntimeError } from '../../../src/core/mcp/mcpRuntimeError.js';
import { caller, fixtureServer, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * docs/rules/gateway.md#a-crashed-call: after confirmation the call executes "with retry and error
 * handling". A call whose server crashed under it is run once more on a
 * fresh instance when the tool says a second run changes nothing; a write
 * is never run again without asking. Each fixture tool appends its pid to
 * `marker` on every call and crashes on the first (a real stdio server).
 */
const pidsIn = (marker: string) => fs.readFileSync(marker, 'utf8').trim().split('\n');

async function crashOnce(tool: string) {
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
  const marker = path.join(tempDir('chatos-retry-'), 'calls');
  const call = host.tools.call(caller('conv-retry'), `mcp_echo_${tool}`, { marker });
  return { call, marker };
}

describe('a call whose server crashed (execute with retry)', () => {
  it('a read-only tool is run once more on a fresh instance, and its answer is the result', async () => {
    const { call, marker } = await crashOnce('crash_once_read');
    expect(textOf((await call).result)).toBe('ran on a fresh instance');
    const pids = pidsIn(marker);
    expect(pids).toHaveLength(2);
    expect(pids[0]).not.toBe(pids[1]);
  });

  it('an idempotent, non-destructive tool is retried the same way', async () => {
    const { call, marker } = await crashOnce('crash_once_idempotent');
    expect(textOf((await call).result)).toBe('ran on a fresh instance');
    expect(pidsIn(marker)).toHaveLength(2);
  });

  it('a write is not run again: the call fails as crashed, after one run', async () => {
    const { call, marker } = await crashOnce('crash_once_write');
    const error = await call.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('SERVER_CRASHED');
    expect(pidsIn(marker)).toHaveLength(1);
  });
});
