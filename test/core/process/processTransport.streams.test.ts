import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INHERITED_ENV_NAMES, serverEnvironment } from '../../../src/core/process/serverEnvironment.js';
import { ServerFaultError } from '../../../src/core/process/serverFaultError.js';
import { ServerLog } from '../../../src/core/process/serverLog.js';
import { tempDir } from '../../helpers/tempDir.js';
import { callText, connectNode, groupOf, isRunning, serverScript } from './processHelpers.js';

const codesOf = (errors: Error[]) => errors.map((error) => (error instanceof ServerFaultError ? error.code : error.message));

describe('ProcessTransport: stdout and stderr', () => {
  it('a server flooding stderr (megabytes, blocking writes) keeps answering tools/call', async () => {
    const log = new ServerLog({ maxLines: 500, maxBytes: 256 * 1024 });
    const expected = 5 * 2 * 1024 * 1024;
    let stderrBytes = 0;
    // stderr and stdout are separate pipes: the last stderr bytes may arrive after the answer, so wait for them.
    const allStderr = new Promise<void>((resolve) => {
      const unsubscribe = log.onAppend((entry) => {
        if (entry.stream === 'stderr') stderrBytes += Buffer.byteLength(entry.text) + 1;
        if (stderrBytes >= expected) (unsubscribe(), resolve());
      });
    });
    const { client } = await connectNode([serverScript], { log });

    // Each call writes 2 MiB to stderr before answering; a host that did not
    // drain stderr would leave the server blocked in write() after ~64 KiB.
    for (let i = 0; i < 5; i++) expect(await callText(client, 'noisyEcho', { text: `answer ${i}`, mib: 2 })).toBe(`answer ${i}`);
    await allStderr;

    expect(stderrBytes).toBe(expected);
    // ...and the log kept only its bound.
    expect(log.size).toBeLessThanOrEqual(500);
    expect(log.entries().reduce((sum, entry) => sum + Buffer.byteLength(entry.text), 0)).toBeLessThanOrEqual(256 * 1024);
  });

  it('non-JSON and non-JSON-RPC stdout lines are logged faults, and the connection stays usable', async () => {
    const { client, log, errors } = await connectNode([serverScript, '--banner']);
    expect(await callText(client, 'garbage')).toBe('still here');
    expect(await callText(client, 'echo', { text: 'after the garbage' })).toBe('after the garbage');

    expect(codesOf(errors)).toEqual(['NON_JSON_STDOUT', 'NON_JSON_STDOUT', 'INVALID_JSONRPC']);
    const faults = log
      .entries()
      .filter((entry) => entry.stream === 'fault')
      .map((entry) => entry.text);
    expect(faults[0]).toContain('"Server starting... (not JSON)"');
    expect(faults[1]).toContain('DEBUG: this line is not JSON-RPC');
  });

  it('a stdout line 16 times over maxLineBytes is a fault that closes the transport, never a host crash', async () => {
    const { client, transport, log, errors } = await connectNode([serverScript], { maxLineBytes: 64 * 1024 });
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    // 8 MiB without a newline: the host must give up at 16 x 64 KiB, not buffer (or wait for) it all.
    await expect(client.callTool({ name: 'hugeLine', arguments: { bytes: 8 * 1024 * 1024 } })).rejects.toThrow(/Connection closed/);
    await closed;
    await transport.close();

    expect(codesOf(errors)).toContain('STDOUT_LINE_TOO_LONG');
    expect(log.tail(10, 'fault').some((entry) => entry.text.includes('over 1048576 bytes, 16 times the limit of 65536'))).toBe(true);
    expect(transport.closedBecause).toBe('it wrote a stdout line of more than 1 MB (the limit of one message is 0.1 MB), so the connection was closed');
    expect(isRunning(transport.pid!)).toBe(false);
    expect(groupOf(transport.pid!)).toEqual([]);
  });
});

describe('ProcessTransport: arguments and environment', () => {
  it('&&, |, ; and $(…) in args are literal arguments, never run by a shell', async () => {
    const dir = tempDir();
    const marker = (name: string) => path.join(dir, name);
    const args = [`a && touch ${marker('and')}`, '|', 'touch', marker('pipe'), `; touch ${marker('semi')}`, `$(touch ${marker('subst')})`, '&&', 'touch', marker('bare')];
    const { client } = await connectNode([serverScript, ...args]);

    expect(JSON.parse(await callText(client, 'argv'))).toEqual(args);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  describe('minimal environment', () => {
    const saved = process.env.CHATOS_SECRET_TEST;
    afterEach(() => {
      if (saved === undefined) delete process.env.CHATOS_SECRET_TEST;
      else process.env.CHATOS_SECRET_TEST = saved;
    });

    it('a host variable is not inherited unless passed', async () => {
      process.env.CHATOS_SECRET_TEST = 'hunter2';
      const { client } = await connectNode([serverScript], { env: serverEnvironment(process.env, undefined, { PLUGIN_SETTING: 'on' }) });
      const env = JSON.parse(await callText(client, 'env')) as Record<string, string>;

      expect(env.CHATOS_SECRET_TEST).toBeUndefined();
      expect(env.PLUGIN_SETTING).toBe('on');
      expect(env.PATH).toBe(process.env.PATH);
      // Node may add a few of its own; nothing else of the host's arrives.
      const fromHost = Object.keys(env).filter((key) => process.env[key] !== undefined && env[key] === process.env[key]);
      expect(fromHost.every((key) => INHERITED_ENV_NAMES.includes(key) || key.startsWith('LC_'))).toBe(true);
    });

    it('a host variable named explicitly is passed', async () => {
      process.env.CHATOS_SECRET_TEST = 'hunter2';
      const { client } = await connectNode([serverScript], { env: serverEnvironment(process.env, undefined, { CHATOS_SECRET_TEST: process.env.CHATOS_SECRET_TEST }) });
      expect(JSON.parse(await callText(client, 'env')).CHATOS_SECRET_TEST).toBe('hunter2');
    });

    it('the server environment is the inherited list plus extra', () => {
      process.env.CHATOS_SECRET_TEST = 'hunter2';
      const env = serverEnvironment(process.env, undefined, { EXTRA: '1' });
      expect(Object.keys(env).sort()).toEqual([...Object.keys(env).filter((key) => key !== 'EXTRA'), 'EXTRA'].sort());
      expect(
        Object.keys(env)
          .filter((key) => key !== 'EXTRA')
          .every((key) => INHERITED_ENV_NAMES.includes(key) || key.startsWith('LC_')),
      ).toBe(true);
      expect(env.EXTRA).toBe('1');
    });
  });
});
