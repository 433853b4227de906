import { describe, expect, it } from 'vitest';
import { confirm, onAsked, pendingOf } from '../../helpers/questions.js';
import { createHost } from '../../../src/core/host.js';
import { GatewayError } from '../../../src/core/tools/toolGateway.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { caller, fixtureServer, GATEWAY_SERVER, startTestHost, textOf, trustPlugin, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { writePlugin } from '../../helpers/plugins.js';
import { TestScheduler } from '../../helpers/testScheduler.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';
import { EventQueue } from '../../helpers/eventQueue.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

const SERVER = 'chatos::fx';
const tool = (name: string) => `mcp_fx_${name}`;

async function confirmHost(options: { scheduler?: TestScheduler; permissions?: Record<string, string> } = {}) {
  const test = await startTestHost(
    ({ home }) => writeMcpYaml(home, { fx: fixtureServer(options.permissions ? { permissions: options.permissions } : {}) }),
    options.scheduler ? { scheduler: options.scheduler } : {},
  );
  const required = new EventQueue<ToolConfirmationRequest>();
  onAsked(test.host, 'toolConfirmation', required.push);
  const count = async () => Number(textOf((await test.host.tools.call(caller(), tool('count'), {})).result));
  return { ...test, required, count };
}

describe('permission levels (docs/rules/confirmation.md#permission-levels)', () => {
  it('come from config patterns, then MCP annotations, else write; overrides persist across restarts', async () => {
    const { host, home } = await confirmHost({ permissions: { 'echo*': 'confirm' } });
    const levels = async (h = host) => Object.fromEntries((await h.tools.list(caller())).tools.map((t) => [t.rawName, `${t.permission}/${t.permissionSource}`]));
    const first = await levels();
    expect(first).toMatchObject({ echo: 'confirm/config', echo_meta: 'confirm/config', count: 'read/annotation', dangerous: 'confirm/annotation', crash: 'write/default' });

    internalsOf(host).mcp.settings.setPermission(SERVER, 'crash', 'navigate');
    expect((await levels()).crash).toBe('navigate/override');
    await host.dispose();

    const again = createHost({ home, appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() });
    await again.start();
    try {
      expect((await levels(again)).crash).toBe('navigate/override');
    } finally {
      await again.dispose();
    }
  });

  it("come from a plugin's own declaration (plugin.json ai.mcp.permissions)", async () => {
    const { host } = await startTestHost(({ pluginRoot }) =>
      writePlugin(
        pluginRoot,
        'com.example.perm',
        {
          id: 'com.example.perm',
          name: 'p',
          version: '1.0.0',
          apps: [{ id: 'main', name: 'm', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true, permissions: { 'echo*': 'confirm', count: 'navigate' } } } }],
        },
        { 'index.mjs': '', 'server.mjs': `import ${JSON.stringify(GATEWAY_SERVER)};\n` },
      ),
    );
    trustPlugin(host, 'com.example.perm');
    const levels = Object.fromEntries(
      (await host.tools.list(caller())).tools.filter((t) => t.serverId.startsWith('com.example.perm')).map((t) => [t.rawName, `${t.permission}/${t.permissionSource}`]),
    );
    expect(levels).toMatchObject({ echo: 'confirm/config', echo_meta: 'confirm/config', count: 'navigate/config', dangerous: 'confirm/annotation', crash: 'write/default' });
    // The registry row alone carries them and the _meta every call gets, so a reload builds the definition from the row, not by re-joining the catalog.
    const row = host.registry.listServers().find((r) => r.id.startsWith('com.example.perm'))!;
    expect(row.permissions).toEqual([
      { pattern: 'echo*', level: 'confirm' },
      { pattern: 'count', level: 'navigate' },
    ]);
    expect(row.callMeta).toEqual(host.mcp.definition(row.id)?.meta);
    expect(row.callMeta).toHaveProperty('workdir');
  });

  it('a tool switched off is never offered and cannot be called; switched on again it is', async () => {
    const { host } = await confirmHost();
    internalsOf(host).mcp.settings.setToolEnabled(SERVER, 'echo', false);
    const listed = await host.tools.list(caller());
    expect(listed.tools.map((t) => t.rawName)).not.toContain('echo');
    expect(listed.problems.find((p) => p.code === 'TOOL_DISABLED')?.message).toContain('echo');
    await expect(host.tools.call(caller(), tool('echo'), { text: 'x' })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' } satisfies Partial<GatewayError>);
    internalsOf(host).mcp.settings.setToolEnabled(SERVER, 'echo', true);
    expect(textOf((await host.tools.call(caller(), tool('echo'), { text: 'back' })).result)).toBe('back');
  });
});

describe('the confirmation gateway (docs/rules/confirmation.md#confirmation)', () => {
  it('never runs a confirm tool before approval, and runs it once approved', async () => {
    const { host, required, count } = await confirmHost();
    const before = await count();
    const call = host.tools.call(caller(), tool('dangerous'), {});
    const request = await required.next();
    expect(request).toMatchObject({ serverName: SERVER, toolName: tool('dangerous'), risk: 'high', conversationId: 'conv-1' });
    expect(await count()).toBe(before); // still waiting: the server has not run it
    confirm(host, request.id, true);
    const outcome = await call;
    expect(outcome.decision).toBe('approved');
    expect(textOf(outcome.result)).toBe(`ran ${before + 1}`);
  });

  it('a declined call returns a result saying so, and the server never ran it', async () => {
    const { host, required, count } = await confirmHost();
    const before = await count();
    const call = host.tools.call(caller(), tool('dangerous'), {});
    confirm(host, (await required.next()).id, false);
    const outcome = await call;
    expect(outcome.decision).toBe('declined');
    expect(outcome.result.isError).toBe(true);
    expect(textOf(outcome.result)).toContain('declined');
    expect(await count()).toBe(before);
    expect(host.audit.query({ limit: 1, tool: tool('dangerous') })[0]).toMatchObject({ tool: tool('dangerous'), decision: 'declined', outcome: 'declined', permission: 'confirm' });
  });

  it('expires after 60 s without an answer (injected clock)', async () => {
    const scheduler = new TestScheduler();
    const { host, required, count } = await confirmHost({ scheduler });
    const before = await count();
    const call = host.tools.call(caller(), tool('dangerous'), {});
    await required.next();
    scheduler.advance(59_999);
    expect(pendingOf(host, 'toolConfirmation').length).toBe(1);
    scheduler.advance(1);
    const outcome = await call;
    expect(outcome.decision).toBe('expired');
    expect(textOf(outcome.result)).toContain('not run');
    expect(await count()).toBe(before);
  });

  it('"approve for this conversation" covers later calls in that conversation only', async () => {
    const { host, required } = await confirmHost();
    const first = host.tools.call(caller('c1'), tool('dangerous'), {});
    confirm(host, (await required.next()).id, true, 'conversation');
    await first;
    const second = await host.tools.call(caller('c1'), tool('dangerous'), {});
    expect(second.decision).toBe('approved');
    expect(required.length).toBe(0);
    const other = host.tools.call(caller('c2'), tool('dangerous'), {});
    confirm(host, (await required.next()).id, false);
    expect((await other).decision).toBe('declined');
  });

  it('closing the host rejects every pending confirmation', async () => {
    const { host, required } = await confirmHost();
    const calls = [host.tools.call(caller('a'), tool('dangerous'), {}), host.tools.call(caller('b'), tool('dangerous'), {})];
    await required.next();
    await required.next();
    // Kept before the dispose: a disposed host has no facades.
    const { questions } = host;
    expect(questions.list()).toHaveLength(2);
    await host.dispose();
    const outcomes = await Promise.allSettled(calls);
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') expect(outcome.value.decision).toBe('declined');
    }
    expect(questions.list()).toHaveLength(0);
  });

  it('every call leaves an audit record', async () => {
    const { host } = await confirmHost();
    await host.tools.call(caller('c9', { agentId: 'writer' }), tool('echo'), { text: 'hi' });
    expect(host.audit.query({ limit: 1 })[0]).toMatchObject({
      agentId: 'writer',
      conversationId: 'c9',
      appId: 'chatos',
      flow: 'main',
      serverId: SERVER,
      tool: tool('echo'),
      permission: 'write',
      decision: 'auto',
      outcome: 'ok',
    });
  });
});
