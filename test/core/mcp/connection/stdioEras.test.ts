import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../../../src/core/host.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { tempDir } from '../../../helpers/tempDir.js';
import { livingProcesses } from '../../process/processHelpers.js';

/**
 * A program is asked its protocol era on its own process (docs/rules/mcp-yaml.md#protocol-eras): a server that
 * answers `server/discover` for 2026-07-28 is spoken to statelessly, one that only knows `initialize` as before,
 * and every start asks again, so a server updated to the other era is seen as such. Real servers over real stdio:
 * one built with the v2 server package (both eras), one with the v1 SDK (2025 only).
 */

const FIXTURES = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'servers');
const ERA_SERVER = path.join(FIXTURES, 'eraServer.mjs');
const ID = 'chatos::era';

/** A host with the era server, whose era is what `eraFile` says as it starts. */
async function hostWithEraServer(era: 'modern' | 'legacy' | 'strict'): Promise<{ host: Host; eraFile: string }> {
  const eraFile = path.join(tempDir('chatos-era-'), 'era');
  fs.writeFileSync(eraFile, era);
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { era: { transport: 'stdio', command: process.execPath, args: [ERA_SERVER, eraFile] } }));
  return { host, eraFile };
}

const callEra = async (host: Host) => textOf((await host.tools.call(caller('conv-era'), 'mcp_era_era', {})).result);
const protocolOf = (host: Host) => host.mcp.servers.list().find((server) => server.id === ID)?.protocol;
const lifecycle = (host: Host) => host.mcp.servers.log(ID).join('\n');

describe('a stdio server of each protocol era', { timeout: 60_000 }, () => {
  it('of 2026-07-28 (the v2 server package) is spoken to statelessly, on the process it was asked on', async () => {
    const { host } = await hostWithEraServer('modern');
    expect(await callEra(host)).toMatch(/^modern server, pid \d+$/);
    expect(protocolOf(host)).toEqual({ era: 'modern', version: '2026-07-28' });
    // One process: the probe's answer was adopted, not asked again on another.
    expect(lifecycle(host).match(/started pid/g)).toHaveLength(1);
  });

  it('of 2025 (the v1 SDK, no server/discover) is spoken to over initialize, on the same process', async () => {
    const { host } = await hostWithEraServer('legacy');
    expect(await callEra(host)).toMatch(/^legacy server, pid \d+$/);
    expect(protocolOf(host)).toEqual({ era: 'legacy', version: '2025-11-25' });
    expect(lifecycle(host)).toContain('the server does not speak MCP 2026-07-28 (it answered server/discover with error -32601 (Method not found)); speaking initialize to it');
    expect(lifecycle(host).match(/started pid/g)).toHaveLength(1);
  });

  it('of 2025 that ends its process on the probe is started again and spoken to over initialize', async () => {
    const { host } = await hostWithEraServer('strict');
    expect(await callEra(host)).toMatch(/^legacy server, pid \d+$/);
    expect(protocolOf(host)).toEqual({ era: 'legacy', version: '2025-11-25' });
    expect(lifecycle(host)).toContain('the server ended its process on server/discover');
    expect(lifecycle(host).match(/started pid/g)).toHaveLength(2);
  });

  it('of 2025 that ends its process on the probe leaves nothing of that process when it is started again', async () => {
    // Review F11: the probe's process tree is ended (its SIGTERM-deaf helper too) before the second process starts.
    const eraFile = path.join(tempDir('chatos-era-'), 'era');
    fs.writeFileSync(eraFile, 'strict');
    const record = `${eraFile}.helpers`;
    const { host } = await startTestHost(({ home }) =>
      writeMcpYaml(home, { era: { transport: 'stdio', command: process.execPath, args: [path.join(FIXTURES, 'lingeringHelperServer.mjs'), record, ERA_SERVER, eraFile] } }),
    );
    expect(await callEra(host)).toMatch(/^legacy server, pid \d+$/);
    expect(lifecycle(host).match(/started pid/g)).toHaveLength(2);
    const [probeHelper, helper] = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map(Number);
    // The second start saw no helper of the first one living, and none is now; its own runs.
    expect(JSON.parse(fs.readFileSync(`${record}.alive`, 'utf8'))).toEqual([]);
    expect(livingProcesses().map((row) => row.pid)).not.toContain(probeHelper);
    expect(livingProcesses().map((row) => row.pid)).toContain(helper);
  });

  it('updated to the other era is re-detected at its restart, both ways', async () => {
    const { host, eraFile } = await hostWithEraServer('legacy');
    expect(await callEra(host)).toMatch(/^legacy server/);
    expect(protocolOf(host)?.era).toBe('legacy');

    fs.writeFileSync(eraFile, 'modern');
    expect(await host.mcp.servers.restart(ID)).toBe(1);
    expect(await callEra(host)).toMatch(/^modern server/);
    expect(protocolOf(host)).toEqual({ era: 'modern', version: '2026-07-28' });

    fs.writeFileSync(eraFile, 'legacy');
    await host.mcp.servers.restart(ID);
    expect(await callEra(host)).toMatch(/^legacy server/);
    expect(protocolOf(host)?.era).toBe('legacy');
  });
});
