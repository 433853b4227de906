import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../../../src/core/host.js';
import { internalsOf } from '../../../../src/core/modules/hostInternals.js';
import type { ServerLogEntry } from '../../../../src/core/process/serverLog.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';

/**
 * A server's own log messages (notifications/message) go into its log with
 * their level and logger, the level it logs from is set from its page
 * (logging/setLevel, kept for its next starts), and a server that logs in a
 * loop keeps a bounded log (docs/rules/mcp-yaml.md#server-log-messages).
 */

const SERVER = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'servers', 'loggingServer.mjs');
const ID = 'chatos::talk';

async function start() {
  const t = await startTestHost(({ home }) => writeMcpYaml(home, { talk: { transport: 'stdio', command: process.execPath, args: [SERVER] } }));
  return t;
}

/** The log's entries of MCP log messages (the tool's call returns only after each was written, and they come before its result). */
const messages = (host: Host): ServerLogEntry[] =>
  internalsOf(host)
    .mcp.runtime.connections.logOf(ID)
    .entries()
    .filter((entry) => entry.stream === 'message');

async function say(host: Host, args: Record<string, unknown>, conversation = 'conv-log'): Promise<void> {
  expect(textOf((await host.tools.call(caller(conversation), 'mcp_talk_log', args)).result)).toMatch(/^sent /);
}

describe("a server's log messages (real stdio server)", () => {
  it('go into its log with their level and logger, shown on its page beside stderr', async () => {
    const { host } = await start();
    await say(host, { level: 'warning', logger: 'db', text: 'disk nearly full' });
    await say(host, { level: 'info', text: 'ignored', data: { rows: 3 } });
    expect(messages(host).map(({ level, logger, text }) => ({ level, logger, text }))).toEqual([
      { level: 'warning', logger: 'db', text: 'disk nearly full' },
      { level: 'info', logger: undefined, text: '{"rows":3}' },
    ]);
    const lines = host.mcp.servers.log(ID);
    expect(lines.some((line) => line.endsWith('[log:warning db] disk nearly full'))).toBe(true);
    expect(lines.some((line) => line.endsWith('[log:info] {"rows":3}'))).toBe(true);
  });

  it('logging/setLevel from the server page: sent to the running instance at once, and to every later start', async () => {
    const { host } = await start();
    await say(host, { level: 'debug', text: 'before' });
    expect(await host.mcp.servers.setLogLevel(ID, 'error')).toEqual({ applied: 1, notLogging: 0 });
    expect(host.mcp.servers.list().find((server) => server.id === ID)?.logLevel).toBe('error');
    await say(host, { level: 'warning', text: 'quiet' });
    await say(host, { level: 'error', text: 'loud' });
    expect(messages(host).map((entry) => entry.text)).toEqual(['before', 'loud']);

    // A new instance (another conversation) starts with the level too.
    await say(host, { level: 'info', text: 'quiet again' }, 'conv-other');
    await say(host, { level: 'critical', text: 'loud again' }, 'conv-other');
    expect(messages(host).map((entry) => entry.text)).toEqual(['before', 'loud', 'loud again']);

    // Back to the server's own default from its next start.
    expect(await host.mcp.servers.setLogLevel(ID, undefined)).toEqual({ applied: 0, notLogging: 0 });
    expect(host.mcp.servers.list().find((server) => server.id === ID)?.logLevel).toBeUndefined();
  });

  it('a server that logs in a loop keeps a bounded log, each message cut, and the page says how much went', async () => {
    const { host } = await start();
    await say(host, { level: 'info', text: 'x'.repeat(10_000), logger: 'big' });
    const [big] = messages(host);
    expect(Buffer.byteLength(big!.text)).toBeLessThan(4_200);
    expect(big!.text).toMatch(/more bytes not kept\)$/);

    await say(host, { level: 'info', text: `line ${'y'.repeat(500)}`, count: 3_000 });
    const log = internalsOf(host).mcp.runtime.connections.logOf(ID);
    expect(log.size).toBeLessThanOrEqual(2_000);
    const kept = log.entries().reduce((bytes, entry) => bytes + Buffer.byteLength(entry.text), 0);
    expect(kept).toBeLessThanOrEqual(512 * 1024);
    expect(log.dropped).toBeGreaterThan(0);
    // The newest message is kept; the page's first line says how many older ones are not.
    expect(messages(host).at(-1)!.text).toMatch(/ 3000$/);
    expect(host.mcp.servers.log(ID)[0]).toBe(`(${log.dropped} older line(s) not kept: the log keeps the newest lines only)`);
  });
});
