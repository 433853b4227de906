import * as fs from 'node:fs';
import { answerElicitation, onResolved, pendingOf } from '../../helpers/questions.js';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_TASKS_PER_INSTANCE } from '../../../src/core/mcp/client/requestTasks.js';
import { formDefaults } from '../../../src/shared/elicitation.js';
import { nextQuestion, outcomes } from '../../helpers/elicitations.js';
import { EVERYTHING_SERVER, caller, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { sdkServerSource } from '../../helpers/sdkServer.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * A server's elicitation run as a task (MCP 2025-11-25): against the MCP
 * project's reference server over stdio (its async elicitation tool, offered
 * only because the host declares tasks for elicitation/create), and a small
 * SDK server for what the reference server never does: ask for another
 * instance's task, cancel a task, and ask for more tasks than the host keeps.
 */

const ASYNC_TOOL = 'mcp_everything_trigger-elicitation-request-async';
const allText = (content: { type: string; text?: string }[]) => content.map((item) => item.text ?? '').join('\n');

async function everythingHost() {
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
  return host;
}

describe('elicitation run as a task (server-everything)', () => {
  it('offers the async tool; the form is answered and the server fetches the answer with tasks/result', async () => {
    const host = await everythingHost();
    expect((await host.tools.list(caller('conv-a'))).tools.map((t) => t.name)).toContain(ASYNC_TOOL);
    const seen = outcomes(host);
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-a'), ASYNC_TOOL, {});
    const request = await asked;
    if (request.mode !== 'form') throw new Error('expected a form');
    expect(request).toMatchObject({ serverId: 'chatos::everything', conversationId: 'conv-a', message: 'Please provide inputs for the following fields (async task demo):' });
    expect(answerElicitation(host, request.id, 'accept', { ...formDefaults(request.fields), name: 'Ada', favoriteColor: 'Blue' })).toBe(true);
    const text = allText((await call).result.content as { type: string; text?: string }[]);
    expect(text).toContain('[COMPLETED] User provided the requested information!');
    expect(text).toContain('- Name: Ada');
    expect(text).toContain('- Favorite Color: Blue');
    expect(seen).toEqual(['accept']);
    expect(host.audit.query({ tool: 'elicitation/create' }).map((r) => [r.reason, r.decision])).toEqual([
      ['accept', 'approved'],
      ['asked', null],
    ]);
  });

  it('declined: the task completes with decline, as the request answered in place would', async () => {
    const host = await everythingHost();
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-d'), ASYNC_TOOL, {});
    answerElicitation(host, (await asked).id, 'decline');
    expect(allText((await call).result.content as { type: string; text?: string }[])).toContain('[DECLINED] User declined to provide the requested information.');
    expect(host.audit.query({ tool: 'elicitation/create', limit: 1 })[0]).toMatchObject({ reason: 'decline', decision: 'declined' });
  });
});

/** A server that asks as a task and reports, reads a task by id, cancels one, or asks until refused. */
function taskingServer(dir: string): string {
  const file = path.join(dir, 'server.mjs');
  const zod = JSON.stringify(pathToFileURL(path.join(repoRoot, 'node_modules', 'zod', 'index.js')).href);
  fs.writeFileSync(
    file,
    sdkServerSource(
      'tasking',
      `import { z } from ${zod};
const text = (t) => ({ content: [{ type: 'text', text: typeof t === 'string' ? t : JSON.stringify(t) }] });
const ask = (ttl = 60000) => server.server.request({ method: 'elicitation/create', params: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }, task: { ttl } } }, z.any());
const get = (taskId) => server.server.request({ method: 'tasks/get', params: { taskId } }, z.any());
server.registerTool('ask_async', { description: 'asks as a task, says its id' }, async () => text((await ask()).task.taskId));
server.registerTool('task_status', { description: 'reads a task', inputSchema: { taskId: z.string() } }, async ({ taskId }) => {
  try { return text((await get(taskId)).status); } catch (e) { return text('refused: ' + e.message); }
});
server.registerTool('ask_then_cancel', { description: 'asks as a task, then cancels it' }, async () => {
  const { task } = await ask();
  const cancelled = await server.server.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, z.any());
  const after = await get(task.taskId);
  let result;
  try { result = await server.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, z.any()); } catch (e) { result = 'error: ' + e.message; }
  return text({ cancelled: cancelled.status, status: after.status, statusMessage: after.statusMessage, result });
});
server.registerTool('ask_ttl', { description: 'asks as a task with a ttl, says the ttl kept', inputSchema: { ttl: z.number() } }, async ({ ttl }) => text(String((await ask(ttl)).task.ttl)));
server.registerTool('ask_until_dropped', { description: 'asks as a task with a ttl, and polls until the task is gone', inputSchema: { ttl: z.number() } }, async ({ ttl }) => {
  const { task } = await ask(ttl);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    try { await get(task.taskId); } catch (e) { return text({ ttl: task.ttl, dropped: e.message }); }
  }
});
server.registerTool('flood', { description: 'asks as tasks until refused' }, async () => {
  for (let made = 0; made < 100; made++) {
    try { await ask(); } catch (e) { return text(made + ' made, then: ' + e.message); }
  }
  return text('never refused');
});`,
    ),
  );
  return file;
}

describe('tasks per server instance (a small SDK server)', () => {
  async function taskingHost() {
    const server = taskingServer(tempDir('chatos-tasking-'));
    const entry = { transport: 'stdio', command: process.execPath, args: [server] };
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { one: entry, two: entry }));
    return host;
  }

  it('a task is found only by the instance that made it: another server asking for its id hears it does not exist', async () => {
    const host = await taskingHost();
    const asked = nextQuestion(host);
    const taskId = textOf((await host.tools.call(caller('conv-i'), 'mcp_one_ask_async', {})).result);
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    await asked;
    expect(textOf((await host.tools.call(caller('conv-i'), 'mcp_one_task_status', { taskId })).result)).toMatch(/^(working|completed)$/);
    expect(textOf((await host.tools.call(caller('conv-i'), 'mcp_two_task_status', { taskId })).result)).toMatch(/^refused: .*Task not found/);
  });

  it("the server's tasks/cancel withdraws the card; the task says the server cancelled it", async () => {
    const host = await taskingHost();
    const seen = outcomes(host);
    const report = JSON.parse(textOf((await host.tools.call(caller('conv-c'), 'mcp_one_ask_then_cancel', {})).result));
    expect(report).toMatchObject({ cancelled: 'cancelled', status: 'cancelled', statusMessage: 'the server cancelled the task (tasks/cancel); ChatOS withdrew the request' });
    expect(report.result).toMatch(/^error: .*task [0-9a-f]{32} was cancelled, so it has no result: the server cancelled the task/);
    expect(seen).toEqual(['withdrawn']);
    expect(pendingOf(host, 'elicitation')).toEqual([]);
  });

  it('the ttl a server asks is capped; at its end the task is dropped and its card withdrawn', async () => {
    const host = await taskingHost();
    const seen = outcomes(host);
    // Ten hours asked: thirty minutes kept.
    expect(textOf((await host.tools.call(caller('conv-t'), 'mcp_one_ask_ttl', { ttl: 10 * 3_600_000 })).result)).toBe(String(30 * 60_000));
    const shortAsked = nextQuestion(host);
    let callEnded = false;
    const shortCall = host.tools.call(caller('conv-t2'), 'mcp_two_ask_until_dropped', { ttl: 1_000 });
    void shortCall.then(() => (callEnded = true));
    const card = await shortAsked;
    const withdrawnWhileCalling = new Promise<boolean>((resolve) => onResolved(host, 'elicitation', (r) => r.id === card.id && resolve(!callEnded)));
    const short = JSON.parse(textOf((await shortCall).result));
    // Withdrawn at the ttl, while the call still polled: not because the call ended.
    expect(await withdrawnWhileCalling).toBe(true);
    expect(short).toMatchObject({ ttl: 1_000 });
    expect(short.dropped).toContain('Task not found');
    // The first card went with its call; the second at its task's ttl, while its call still polled.
    expect(seen).toEqual(['withdrawn', 'withdrawn']);
    expect(pendingOf(host, 'elicitation')).toEqual([]);
  });

  it(`an instance may make the host keep ${MAX_TASKS_PER_INSTANCE} tasks; the next is refused, saying why, and audited`, async () => {
    const host = await taskingHost();
    const text = textOf((await host.tools.call(caller('conv-f'), 'mcp_one_flood', {})).result);
    expect(text).toContain(`${MAX_TASKS_PER_INSTANCE} made, then: `);
    expect(text).toContain(`ChatOS refused to run elicitation/create as a task: server "chatos::one" already has ${MAX_TASKS_PER_INSTANCE} tasks kept (at most ${MAX_TASKS_PER_INSTANCE})`);
    // The refusal is audited under the call that made the server ask.
    expect(host.audit.query({ tool: 'elicitation/create' }).filter((r) => r.reason === 'TASK_LIMIT')).toEqual([
      expect.objectContaining({ serverId: 'chatos::one', decision: 'refused', outcome: 'refused', conversationId: 'conv-f' }),
    ]);
    // Another instance is not limited by it.
    const asked = nextQuestion(host);
    expect(textOf((await host.tools.call(caller('conv-f'), 'mcp_two_ask_async', {})).result)).toMatch(/^[0-9a-f]{32}$/);
    await asked;
  });
});
