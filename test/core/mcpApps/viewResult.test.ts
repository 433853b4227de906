import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../src/core/host.js';
import { MAX_VIEW_STRUCTURED_BYTES } from '../../../src/core/chat/viewResult.js';
import type { ToolMessage } from '../../../src/shared/chat.js';
import { startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * What a tool with a view returned is kept with the conversation for the
 * view (docs/rules/mcp-apps.md#the-result-a-view-gets): structuredContent
 * and _meta beside the content, bounded, the same after the conversation is
 * reopened; what the model reads is unchanged. Real servers over stdio: the
 * official basic example from npm, and test/fixtures/servers/viewDataServer.mjs.
 */

const BASIC = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js'), '--stdio'] };
const BUDGET = {
  transport: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-budget-allocator', 'dist', 'index.js'), '--stdio'],
};
const DATA = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'viewDataServer.mjs')] };

const toolMessages = (messages: readonly { role: string }[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');

describe('the result a view gets, kept with the conversation', () => {
  it("keeps the official basic example's structuredContent, and a reopened conversation has it the same", async () => {
    const { host, home, provider } = await startChatWorld({ servers: { basic: BASIC } });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 't1', name: 'mcp_basic_get-time', arguments: {} }] }, { kind: 'reply', text: 'That is the time.' });
    const turn = host.chat.send({ agentId: 'helper', text: 'what time is it on the server?' });
    await turn.done;
    const [stored] = toolMessages(host.chat.get(turn.conversationId).messages);
    const time = stored!.content[0]!.type === 'text' ? stored!.content[0]!.text : '';
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(stored).toMatchObject({ status: 'ok', view: 'ui://get-time/mcp-app.html', viewResult: { structuredContent: { time } } });
    // The model read the text, as before.
    expect(toolResultsIn(provider.requests[1]!.body)).toEqual([['t1', time]]);
    await host.dispose();

    const again = createHost({ home, appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() });
    await again.start();
    try {
      const [reopened] = toolMessages(again.chat.get(turn.conversationId).messages);
      expect(reopened!.viewResult).toEqual({ structuredContent: { time } });
    } finally {
      await again.dispose();
    }
  });

  it("keeps the official budget allocator's data (its view shows nothing without it)", async () => {
    const { host, provider } = await startChatWorld({ servers: { budget: BUDGET } });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'b1', name: 'mcp_budget_get-budget-data', arguments: {} }] }, { kind: 'reply', text: 'Here is the budget.' });
    const turn = host.chat.send({ agentId: 'helper', text: 'show the budget' });
    await turn.done;
    const [stored] = toolMessages(host.chat.get(turn.conversationId).messages);
    const data = stored!.viewResult!.structuredContent as { config: { defaultBudget: number }; analytics: { history: unknown[]; benchmarks: unknown[] } };
    expect(data.config.defaultBudget).toBe(100_000);
    expect(data.analytics.history).toHaveLength(24);
    expect(data.analytics.benchmarks.length).toBeGreaterThan(0);
  });

  it('keeps structuredContent and _meta; the model is sent the content alone', async () => {
    const { host, provider } = await startChatWorld({ servers: { data: DATA } });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'r1', name: 'mcp_data_report', arguments: {} }] }, { kind: 'reply', text: 'Reported.' });
    const turn = host.chat.send({ agentId: 'helper', text: 'report' });
    await turn.done;
    const [stored] = toolMessages(host.chat.get(turn.conversationId).messages);
    expect(stored).toMatchObject({
      view: 'ui://data/view.html',
      content: [{ type: 'text', text: 'report: 42' }],
      viewResult: { structuredContent: { value: 42, rows: [{ name: 'a', amount: 1 }] }, _meta: { 'example.com/revision': 7 } },
    });
    expect(toolResultsIn(provider.requests[1]!.body)).toEqual([['r1', 'report: 42']]);
  });

  it('leaves out a megabyte of structuredContent and data nested a thousand levels, says why, and the conversation goes on', async () => {
    const { host, home, provider } = await startChatWorld({ servers: { data: DATA } });
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'h1', name: 'mcp_data_huge_report', arguments: {} },
          { id: 'd1', name: 'mcp_data_deep_report', arguments: {} },
        ],
      },
      { kind: 'reply', text: 'Both reports are in.' },
    );
    const turn = host.chat.send({ agentId: 'helper', text: 'the big reports' });
    const outcome = await turn.done;
    expect(outcome.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Both reports are in.' });
    const [huge, deep] = toolMessages(host.chat.get(turn.conversationId).messages);
    // Nothing of the content is lost; the part over its bound is not kept, and the reason is.
    expect(huge).toMatchObject({ status: 'ok', content: [{ type: 'text', text: 'a huge report' }] });
    expect(huge!.viewResult).toEqual({
      cut: [{ part: 'structuredContent', reason: `the result's structuredContent is 1025 KB; at most ${MAX_VIEW_STRUCTURED_BYTES / 1024} KB is kept for the view` }],
    });
    expect(deep).toMatchObject({ status: 'ok', content: [{ type: 'note', text: expect.stringContaining('nests deeper than 64 levels') }] });
    expect(deep!.viewResult!.cut).toEqual([{ part: 'structuredContent', reason: expect.stringContaining('nests deeper than 64 levels') }]);
    // The model was told what it could not be sent.
    expect(toolResultsIn(provider.requests[1]!.body)[1]![1]).toContain('nests deeper than 64 levels; it is not shown to the model');
    // The conversation file stays small: the megabyte is not in it.
    const file = path.join(home, 'chatos', 'conversations', turn.conversationId, 'messages.jsonl');
    expect(fs.statSync(file).size).toBeLessThan(64 * 1024);
  });
});
