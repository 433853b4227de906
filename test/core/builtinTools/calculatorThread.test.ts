import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALCULATION_DEADLINE_MS } from '../../../src/core/builtinTools/calculatorThread.js';
import type { Host } from '../../../src/core/host.js';
import { HOST_UI_APP } from '../../../src/shared/agents.js';
import { startTestHost, textOf } from '../../helpers/gatewayHost.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * The calculator's engine is shared by every call (docs/using/mcp-servers.md#built-in-tools):
 * a refused calculation leaves nothing behind, and one that never ends is
 * stopped at its deadline rather than holding the host's thread.
 */

async function calculatorHost(scheduler?: TestScheduler) {
  const { host } = await startTestHost(
    ({ home }) => {
      const file = path.join(home, 'chatos', 'mcp.yaml');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify({ version: 1, servers: {}, builtins: { calculator: { enabled: true } } })}\n`);
    },
    scheduler ? { scheduler } : {},
  );
  const agent = host.agents.create({ id: 'helper', name: 'Helper', uiApps: [{ ...HOST_UI_APP, mcp: true, mcpServerIds: ['chatos::calculator'] }] });
  const caller = host.agents.resolve(agent).callerFor('main', 'conv-calc');
  return { host, calculate: (expression: string) => calculate(host, caller, expression) };
}

async function calculate(host: Host, caller: Parameters<Host['tools']['call']>[0], expression: string) {
  const { result } = await host.tools.call(caller, 'mcp_calculator_calculate', { expression });
  return { text: textOf(result), isError: result.isError === true };
}

describe('the built-in calculator over the gateway', () => {
  it('a refused cos(10^100000) leaves the engine at 64 digits: the next sqrt(2) answers at once', async () => {
    const { calculate } = await calculatorHost();
    // decimal.js raises its precision to 100,071 digits for this cosine, then throws.
    expect(await calculate('cos(10^100000)')).toEqual({ text: expect.stringMatching(/Precision limit exceeded/), isError: true });
    // 1/3 * 3 - 1 is -1e-64 at 64 digits; at the precision the refused call left behind it was -1e-100071 (cheap to compute, unlike sqrt).
    expect(await calculate('1/3 * 3 - 1')).toEqual({ text: '-1e-64', isError: false });
    expect(await calculate('sqrt(2)')).toEqual({ text: '1.4142135623730950488016887242097', isError: false });
  });

  it("stops a calculation past its deadline on the host's clock with a clear error, and answers the next one", async () => {
    const scheduler = new TestScheduler();
    const { calculate } = await calculatorHost(scheduler);
    // decimal.js's sinh of a large argument runs a series that grows with it: about a minute for this one at 64 digits.
    const endless = calculate('sinh(4 * 10^5)');
    // The deadline is armed once the calculation reached the calculator's thread (which may still be starting): time
    // moves only then, and only by the deadline, so no other timer of the call (its own 60 s timeout) falls due.
    await scheduler.timerSet(CALCULATION_DEADLINE_MS);
    scheduler.advance(CALCULATION_DEADLINE_MS);
    expect(await endless).toEqual({ text: expect.stringMatching(/took longer than 5 s and was stopped/), isError: true });
    // A new thread answers the next one.
    expect(await calculate('2^10')).toEqual({ text: '1024', isError: false });
  });
});
