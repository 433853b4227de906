import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ProcessTransport, describeExit } from '../../../src/core/process/processTransport.js';
import { serverEnvironment } from '../../../src/core/process/serverEnvironment.js';
import { ServerFaultError } from '../../../src/core/process/serverFaultError.js';
import { ServerLog } from '../../../src/core/process/serverLog.js';
import { callText, connectNode, descendantsOf, groupOf, isRunning, launcherScript, serverScript } from './processHelpers.js';

const posix = process.platform !== 'win32';

describe('ProcessTransport: writing', () => {
  it('sends the messages of one turn of the event loop in one write, in order, and each is answered', async () => {
    const { client } = await connectNode([serverScript]);
    const before = Number(await callText(client, 'reads'));
    const texts = Array.from({ length: 20 }, (_, i) => `call ${i}`);
    expect(await Promise.all(texts.map((value) => callText(client, 'echo', { text: value })))).toEqual(texts);
    // The twenty calls arrived in one read, then this call in its own: one system call, and the server woke once.
    expect(Number(await callText(client, 'reads')) - before).toBe(2);
  });
});

describe('ProcessTransport: starting and stopping', () => {
  it('close() ends a server that ignores stdin EOF and SIGTERM, escalating to SIGKILL', async () => {
    const { client, transport, log } = await connectNode([serverScript, '--ignore-eof', '--ignore-term']);
    expect(await callText(client, 'echo', { text: 'hi' })).toBe('hi');
    const pid = transport.pid!;

    // Without the escalation close() would wait forever: the test's own timeout would end it, failing.
    await transport.close();

    expect(isRunning(pid)).toBe(false);
    expect(transport.exitInfo?.signal).toBe('SIGKILL');
    const lifecycle = log
      .entries()
      .filter((entry) => entry.stream === 'lifecycle')
      .map((entry) => entry.text);
    expect(lifecycle).toEqual(expect.arrayContaining(['closing stdin', `SIGTERM to process group ${pid}`, `SIGKILL to process group ${pid}`, 'process tree ended']));
  });

  it('close() of a polite server needs only stdin EOF', async () => {
    const { transport, log } = await connectNode([serverScript]);
    await transport.close();
    expect(transport.exitInfo).toMatchObject({ code: 0, signal: null });
    expect(log.entries().some((entry) => entry.text.startsWith('SIGTERM'))).toBe(false);
  });

  it.runIf(posix)('a launcher that starts the real server as a grandchild leaves no descendant after close()', async () => {
    const { client, transport } = await connectNode([launcherScript, serverScript, '--ignore-eof', '--ignore-term']);
    const leader = transport.pid!;
    const server = JSON.parse(await callText(client, 'pid')) as { pid: number; ppid: number };
    expect(server.ppid).toBe(leader); // really a grandchild of this test process
    expect(groupOf(leader).sort()).toEqual([leader, server.pid].sort());

    await transport.close();

    expect(isRunning(leader)).toBe(false);
    expect(isRunning(server.pid)).toBe(false);
    expect(groupOf(leader)).toEqual([]);
    expect(descendantsOf(process.pid).filter((pid) => pid === leader || pid === server.pid)).toEqual([]);
  });

  it.runIf(posix)('when a launcher dies on its own, the grandchild it leaves is ended too', async () => {
    const { client, transport, errors } = await connectNode([launcherScript, serverScript, '--ignore-eof'], { stopTimeouts: { afterTermMs: 300 } });
    const server = JSON.parse(await callText(client, 'pid')) as { pid: number };
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));

    process.kill(transport.pid!, 'SIGKILL'); // only the launcher
    await closed;
    await transport.close(); // resolves once the group is gone

    expect(isRunning(server.pid)).toBe(false);
    expect(groupOf(transport.pid!)).toEqual([]);
    expect(errors.some((error) => error instanceof ServerFaultError && error.code === 'SERVER_EXITED')).toBe(true);
  });

  it('a crash fails the in-flight call at once, and the error names the server and its last stderr lines', async () => {
    const { client, transport, log, errors } = await connectNode([serverScript], { serverId: 'acme::db' });
    const call = client.callTool({ name: 'crash', arguments: { message: 'database is on fire' } }, undefined, { timeout: 60_000 });

    const failure = await call.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    // Closed at once, not the 60 s request timeout (which fails as RequestTimeout).
    expect((failure as McpError).code).toBe(ErrorCode.ConnectionClosed);

    const exit = transport.exitInfo!;
    expect(exit.code).toBe(1);
    expect(exit.lastStderr.join('\n')).toContain('processTestServer: about to fail: database is on fire');
    expect(exit.lastStderr.join('\n')).toContain('Error: database is on fire');
    const message = describeExit('acme::db', exit);
    expect(message).toMatch(/^MCP server "acme::db" exited with code 1; last stderr:\n/);
    expect(message).toContain('  processTestServer: about to fail: database is on fire');
    // The same message reaches onerror as a coded fault, so a caller need not poll exitInfo.
    const fault = errors.find((error): error is ServerFaultError => error instanceof ServerFaultError && error.code === 'SERVER_EXITED');
    expect(fault?.message).toBe(message);
    expect(fault?.serverId).toBe('acme::db');
    expect(log.tail(5, 'fault').map((entry) => entry.text)).toContain(message);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toThrow(/Not connected/);
  });

  it('a command that does not exist fails start() with SPAWN_FAILED, and close() after it is harmless', async () => {
    const log = new ServerLog();
    const transport = new ProcessTransport({ serverId: 'test::missing', command: 'chatos-no-such-command', args: [], env: serverEnvironment(process.env, undefined, {}), log });
    let closes = 0;
    transport.onclose = () => closes++;
    const error = await transport.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerFaultError);
    expect((error as ServerFaultError).code).toBe('SPAWN_FAILED');
    expect((error as ServerFaultError).message).toContain('chatos-no-such-command');
    await transport.close();
    expect(closes).toBe(1);
    expect(log.tail(1, 'fault')[0]?.text).toContain('ENOENT');
  });

  it('onclose fires once, whether close() or the exit comes first', async () => {
    const { transport } = await connectNode([serverScript]);
    let closes = 0;
    const previous = transport.onclose;
    transport.onclose = () => (closes++, previous?.());
    await Promise.all([transport.close(), transport.close()]);
    expect(closes).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 99 })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });
});
