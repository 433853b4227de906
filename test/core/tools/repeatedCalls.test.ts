import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/tools/toolGateway.js';
import { caller, fixtureServer, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { runCli } from '../../helpers/runCli.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import { HOT_READ_MAX_AGE_MS } from '../../../src/core/store/recordsStore.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * A conversation's repeated calls skip the gateway's resolution (owners,
 * grants, catalog, permission) while nothing it depends on changed. These
 * tests change each thing between two identical calls and check the second
 * call sees it: a remembered answer must never outlive what it was based on.
 */

const SERVER = 'chatos::fx';
const ECHO = 'mcp_fx_echo';

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('repeated identical calls', () => {
  it('see a grant revoked in this process, and a tool switched off, at the very next call', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { fx: fixtureServer() }));
    internalsOf(host).registry.center.registerApp('aide', 'host');
    host.registry.grantMcpServerAccess('aide', SERVER);
    const aide = caller('c1', { appId: 'aide' });
    for (let i = 0; i < 3; i++) expect(textOf((await host.tools.call(aide, ECHO, { text: `n${i}` })).result)).toBe(`n${i}`);
    host.registry.revokeMcpServerAccess('aide', SERVER);
    expect((await refusal(host.tools.call(aide, ECHO, { text: 'x' }))).code).toBe('NOT_GRANTED');

    const chatos = caller('c2');
    expect(textOf((await host.tools.call(chatos, ECHO, { text: 'a' })).result)).toBe('a');
    internalsOf(host).mcp.settings.setToolEnabled(SERVER, 'echo', false);
    expect((await refusal(host.tools.call(chatos, ECHO, { text: 'b' }))).code).toBe('UNKNOWN_TOOL');
    internalsOf(host).mcp.settings.setToolEnabled(SERVER, 'echo', true);
    internalsOf(host).mcp.settings.setPermission(SERVER, 'echo', 'read');
    expect((await host.tools.call(chatos, ECHO, { text: 'c' })).tool.permission).toBe('read');
  });

  it("follow the caller's selection and the flow, not the last caller's", async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { fx: fixtureServer({ allowMain: true, allowSub: false }) }));
    const selected = caller('c3', { serverIds: [SERVER] });
    expect(textOf((await host.tools.call(selected, ECHO, { text: 'in' })).result)).toBe('in');
    expect((await refusal(host.tools.call(caller('c3', { serverIds: ['chatos::other'] }), ECHO, { text: 'x' }))).code).toBe('NOT_GRANTED');
    expect((await refusal(host.tools.call(caller('c3', { flow: 'sub' }), ECHO, { text: 'x' }))).code).toBe('WRONG_FLOW');
  });

  it('see a revoke made by another process (the CLI) within the per-call read window', async () => {
    // The host's clock, which the admin DB's read window is counted on, moves only when this test says.
    const clock = new TestScheduler(Date.now());
    const { host, home } = await startTestHost(({ home }) => writeMcpYaml(home, { fx: fixtureServer() }), { clock });
    internalsOf(host).registry.center.registerApp('aide', 'host');
    host.registry.grantMcpServerAccess('aide', SERVER);
    await internalsOf(host).store.flush(); // the host saves its writes in batches: on disk before the CLI reads them
    const aide = caller('c4', { appId: 'aide' });
    expect(textOf((await host.tools.call(aide, ECHO, { text: 'before' })).result)).toBe('before');
    const revoked = await runCli(['revoke', 'aide', SERVER, '--home', home]);
    expect(revoked.code, revoked.stderr).toBe(0);
    clock.advance(HOT_READ_MAX_AGE_MS);
    expect((await refusal(host.tools.call(aide, ECHO, { text: 'after' }))).code).toBe('NOT_GRANTED');
  });

  it('fail as a rejected promise, never a synchronous throw, when a remembered call can no longer run', async () => {
    const clock = new TestScheduler(Date.now());
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { fx: fixtureServer() }), { clock });
    const c = caller('c5');
    const gateway = internalsOf(host).tools.gateway;
    for (let i = 0; i < 2; i++) expect(textOf((await gateway.callTool(c, ECHO, { text: `n${i}` })).result)).toBe(`n${i}`);
    await host.dispose(); // closes the admin DB the call's grants are read from
    clock.advance(HOT_READ_MAX_AGE_MS); // past the per-call read window, so the DB is asked again
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = gateway.callTool(c, ECHO, { text: 'late' }))).not.toThrow();
    // From the synchronous prelude (the remembered call asks the closed DB), not from a later step.
    await expect(pending).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });

  it("take a hook's answer that is only a thenable (a plain-JavaScript hook), as an await would", async () => {
    const decisions: string[] = [];
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { fx: fixtureServer() }), {
      gatewayHooks: {
        // A thenable's then need not return anything: the answer arrives through the callback alone.
        beforeCall: () => ({ then: (resolve: (answer: 'declined') => void): void => void resolve('declined') }) as unknown as Promise<'declined'>,
        afterCall: (record) => decisions.push(record.decision),
      },
    });
    for (let i = 0; i < 2; i++) {
      const call = await host.tools.call(caller('c6'), ECHO, { text: 'x' });
      expect(call.decision).toBe('declined');
    }
    expect(decisions).toEqual(['declined', 'declined']);
  });
});
