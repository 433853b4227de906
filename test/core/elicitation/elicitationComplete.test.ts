import * as fs from 'node:fs';
import { answerElicitation, pendingOf } from '../../helpers/questions.js';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Host, HostOptions } from '../../../src/core/host.js';
import { McpRuntimeError } from '../../../src/core/mcp/mcpRuntimeError.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { sdkServerSource } from '../../helpers/sdkServer.js';
import { nextQuestion, outcomes } from '../../helpers/elicitations.js';
import { tempDir } from '../../helpers/tempDir.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * What the 2025-11-25 spec adds around a question, against a real SDK
 * server over stdio: notifications/elicitation/complete for url questions,
 * and a call whose server waits for the user not timing out meanwhile.
 */

/** A server whose `ask_url` asks a url question with the id it is given, `ask_form` a one-field form, and `complete` says an id is done. */
const SERVER = `
import { z } from 'zod';
server.registerTool('ask_url', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const answer = await server.server.elicitInput({ mode: 'url', message: 'Sign in to Example', url: 'https://example.com/sign-in', elicitationId: id });
  return { content: [{ type: 'text', text: 'answered ' + answer.action }] };
});
server.registerTool('ask_form', { description: 'asks the user a name' }, async () => {
  const answer = await server.server.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
  return { content: [{ type: 'text', text: 'answered ' + answer.action + ' ' + JSON.stringify(answer.content ?? {}) }] };
});
server.registerTool('complete', { inputSchema: { id: z.string() } }, async ({ id }) => {
  await server.server.createElicitationCompletionNotifier(id)();
  return { content: [{ type: 'text', text: 'told' }] };
});`;

async function askingHost(extra: Record<string, unknown> = {}, options: Partial<HostOptions> = {}) {
  const dir = tempDir('chatos-asking-');
  const file = path.join(dir, 'server.mjs');
  // zod is imported by the server from this checkout, as the SDK is.
  const zod = new URL(`file://${path.resolve('node_modules/zod/index.js')}`).href;
  fs.writeFileSync(file, sdkServerSource('asking', SERVER.replace("from 'zod'", `from ${JSON.stringify(zod)}`)));
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { asking: { transport: 'stdio', command: process.execPath, args: [file], ...extra } }), options);
  return host;
}

const auditReasons = (host: Host) => host.audit.query({ tool: 'elicitation/create' }).map((row) => row.reason);

describe('notifications/elicitation/complete', () => {
  it('a url question still waiting ends as completed: the card closes, the server hears accept, the audit says completed', async () => {
    const host = await askingHost();
    const who = caller('conv-c');
    const seen = outcomes(host);
    const asked = nextQuestion(host);
    const call = host.tools.call(who, 'mcp_asking_ask_url', { id: 'el-1' });
    expect(await asked).toMatchObject({ mode: 'url', domain: 'example.com' });

    // Another instance's id, and an unknown one, close nothing.
    expect(textOf((await host.tools.call(who, 'mcp_asking_complete', { id: 'el-unknown' })).result)).toBe('told');
    expect(pendingOf(host, 'elicitation')).toHaveLength(1);

    await host.tools.call(who, 'mcp_asking_complete', { id: 'el-1' });
    expect(textOf((await call).result)).toBe('answered accept');
    expect(seen).toEqual(['completed']);
    expect(pendingOf(host, 'elicitation')).toEqual([]);
    expect(auditReasons(host)).toEqual(['completed', 'asked']);
  });

  it('a url question the user accepted is recorded as completed when the server says so; once only', async () => {
    const host = await askingHost();
    const who = caller('conv-o');
    const asked = nextQuestion(host);
    const call = host.tools.call(who, 'mcp_asking_ask_url', { id: 'el-2' });
    answerElicitation(host, (await asked).id, 'accept');
    expect(textOf((await call).result)).toBe('answered accept');
    await host.tools.call(who, 'mcp_asking_complete', { id: 'el-2' });
    await host.tools.call(who, 'mcp_asking_complete', { id: 'el-2' });
    expect(auditReasons(host)).toEqual(['completed', 'accept', 'asked']);
  });

  it("one conversation's instance cannot complete another's question", async () => {
    const host = await askingHost();
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-a'), 'mcp_asking_ask_url', { id: 'shared-id' });
    const request = await asked;
    await host.tools.call(caller('conv-b'), 'mcp_asking_complete', { id: 'shared-id' });
    expect(pendingOf(host, 'elicitation').map((r) => r.id)).toEqual([request.id]);
    answerElicitation(host, request.id, 'decline');
    expect(textOf((await call).result)).toBe('answered decline');
  });
});

describe('a call whose server waits for the user', () => {
  it('does not time out while the user answers, however long past its timeout', async () => {
    // A 300 ms timeout, on the host's scheduler; the user answers after three times that. Before the pause, this call failed with CALL_TIMEOUT.
    const scheduler = new TestScheduler();
    const host = await askingHost({ timeout: 300 }, { scheduler });
    const who = caller('conv-t');
    await host.tools.call(who, 'mcp_asking_complete', { id: 'warm-up' }); // started: the time below is the call's alone
    const asked = nextQuestion(host);
    const call = host.tools.call(who, 'mcp_asking_ask_form', {});
    const request = await asked;
    scheduler.advance(900);
    expect(answerElicitation(host, request.id, 'accept', { name: 'Ada' })).toBe(true);
    expect(textOf((await call).result)).toBe('answered accept {"name":"Ada"}');
  });

  it('is still bounded by its maximum total time: the question is taken back and the call fails', async () => {
    const host = await askingHost({ timeout: 300, maxTotalTimeout: 1_000 });
    const who = caller('conv-m');
    await host.tools.call(who, 'mcp_asking_complete', { id: 'warm-up' });
    const seen = outcomes(host);
    const error = await host.tools.call(who, 'mcp_asking_ask_form', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_TIMEOUT');
    expect((error as Error).message).toContain('maximum total time of 1000 ms');
    expect(seen).toEqual(['withdrawn']);
    expect(pendingOf(host, 'elicitation')).toEqual([]);
  });
});
