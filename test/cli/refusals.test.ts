import { describe, expect, it } from 'vitest';
import { fixtureServer, writeGatewayPlugin, writeMcpYaml } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

interface Record {
  tool: string | null;
  serverId: string | null;
  appId: string | null;
  decision: string;
  outcome: string;
  reason?: string;
  error?: string;
}

/**
 * A home whose mcp.yaml has a server with a transform ("a-tr", sorted before
 * the others, so a refusal that takes the first possible owner names it),
 * one that main flows may not use, and one that is disabled.
 */
function refusalHome(): { home: string; yaml: string } {
  const home = tempDir();
  const yaml = writeMcpYaml(home, {
    'a-tr': fixtureServer({ transform: [{ prefix: 'tr_' }] }),
    echo: fixtureServer({ allowMain: false }),
    off: fixtureServer({ disabled: true }),
  });
  return { home, yaml };
}

describe('refusals through the real CLI', () => {
  it('name the server that owns the tool, not one with a transform, and say the exact fix', async () => {
    const { home, yaml } = refusalHome();
    const call = (...args: string[]) => runCli(['call', ...args, '--home', home], { timeoutMs: 60_000 });

    // aide is granted neither server: the refusal names the one the name belongs to.
    const notGranted = await call('mcp_echo_echo', '--app', 'aide', '--args', '{"text":"x"}');
    expect(notGranted.code).toBe(1);
    expect(notGranted.stderr).toContain('server "chatos::echo" is not granted to it');
    expect(notGranted.stderr).toContain('fix: chatos grant aide chatos::echo');
    expect(notGranted.stderr).not.toContain('a-tr');

    // chatos may use a-tr in the main flow, and not echo: a refusal for echo, not "no such tool".
    const wrongFlow = await call('mcp_echo_echo', '--app', 'chatos', '--args', '{"text":"x"}');
    expect(wrongFlow.code).toBe(1);
    expect(wrongFlow.stderr).toContain('server "chatos::echo" has allowMain false');
    expect(wrongFlow.stderr).toContain(`fix: set "allowMain: true" for servers.echo in ${yaml}, or call it in a sub flow (--flow sub)`);
    // In a sub flow it runs.
    expect((await call('mcp_echo_echo', '--app', 'chatos', '--flow', 'sub', '--args', '{"text":"sub"}')).stdout).toContain('sub');

    const disabled = await call('mcp_off_echo', '--app', 'chatos', '--args', '{"text":"x"}');
    expect(disabled.stderr).toContain('belongs to server "chatos::off", which is disabled');
    expect(disabled.stderr).toContain(`fix: remove "disabled: true" from servers.off in ${yaml}`);

    // The transformed server's own tool is still its own.
    expect((await call('tr_echo', '--app', 'chatos', '--args', '{"text":"tr"}')).stdout).toContain('tr');
    const trNotGranted = await call('tr_echo', '--app', 'aide', '--args', '{"text":"x"}');
    expect(trNotGranted.stderr).toContain('fix: chatos grant aide chatos::a-tr');
  }, 300_000);

  it('are audited with decision and outcome "refused" and their code, and chatos audit --decision / --outcome list them', async () => {
    const { home } = refusalHome();
    const plugins = tempDir();
    writeGatewayPlugin(plugins, 'com.example.untrusted', [{ appId: 'main', allowMain: true }]);
    const call = (...args: string[]) => runCli(['call', ...args, '--home', home, '--plugins', plugins], { timeoutMs: 60_000 });
    expect((await call('mcp_echo_echo', '--app', 'aide', '--args', '{"text":"x"}')).code).toBe(1);
    expect((await call('mcp_echo_echo', '--app', 'chatos', '--args', '{"text":"x"}')).code).toBe(1);
    expect((await call('mcp_off_echo', '--app', 'chatos')).code).toBe(1);
    const untrusted = await call('mcp_com_example_untrusted_main_echo', '--app', 'chatos', '--args', '{"text":"x"}');
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('fix: review what it runs and trust it: chatos trust com.example.untrusted');
    const unknown = await call('mcp_nothing_here', '--app', 'chatos');
    expect(unknown.stderr).toContain('fix: see the tools it is offered: chatos tools --app chatos --flow main');
    expect((await call('mcp_release', '--app', 'chatos', '--args', '{}')).code).toBe(1);
    expect((await call('mcp_echo_echo', '--app', 'chatos', '--flow', 'sub', '--args', '{"text":"ran"}')).code).toBe(0);

    const refused = await runCli(['audit', '--decision', 'refused', '--json', '--home', home]);
    expect(refused.code).toBe(0);
    const records: Record[] = refused.json().records;
    expect(records.map((r) => [r.tool, r.serverId, r.reason])).toEqual([
      ['mcp_release', null, 'BAD_ARGUMENTS'],
      ['mcp_nothing_here', null, 'UNKNOWN_TOOL'],
      ['mcp_com_example_untrusted_main_echo', 'com.example.untrusted::com.example.untrusted.main', 'NOT_RUNNABLE'],
      ['mcp_off_echo', 'chatos::off', 'SERVER_DISABLED'],
      ['mcp_echo_echo', 'chatos::echo', 'WRONG_FLOW'],
      ['mcp_echo_echo', 'chatos::echo', 'NOT_GRANTED'],
    ]);
    for (const record of records) {
      expect(record).toMatchObject({ decision: 'refused', outcome: 'refused' });
      expect(record.error).toBeTruthy();
    }
    expect(records.at(-1)).toMatchObject({ appId: 'aide' });

    // The call that ran is not among them; --outcome filters as well, and the text form says why.
    expect((await runCli(['audit', '--outcome', 'ok', '--json', '--home', home])).json().records.map((r: Record) => r.tool)).toEqual(['mcp_echo_echo']);
    const text = await runCli(['audit', '--decision', 'refused', '--limit', '1', '--home', home]);
    expect(text.stdout).toMatch(/mcp_release {2}\[-, refused\] {2}refused \(BAD_ARGUMENTS\)/);
    expect((await runCli(['audit', '--decision', 'nope', '--home', home])).code).toBe(2);
  }, 300_000);
});
