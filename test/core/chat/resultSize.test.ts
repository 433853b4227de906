import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolContentItem, ToolMessage } from '../../../src/shared/chat.js';
import { capResult, cutNote, MAX_RESULT_IMAGES } from '../../../src/core/chat/resultCap.js';
import { agentUsing, startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { repoRoot } from '../../helpers/tempDir.js';

/** docs/rules/gateway.md#result-size: the model gets at most a result's cap, with a note; the conversation keeps all of it. */

const RESULT_SIZE_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'resultSizeServer.mjs');
const entry = (extra: Record<string, unknown> = {}) => ({ transport: 'stdio', command: process.execPath, args: [RESULT_SIZE_SERVER], ...extra });
const MB = 1024 * 1024;

describe('the size of a result the model is sent', () => {
  it('a 1.5 MB answer reaches the model cut to 64 000 characters with a note; the tool message keeps all of it', async () => {
    const { host, provider } = await startChatWorld({ servers: { big: entry() } });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'b1', name: 'mcp_big_big_text', arguments: { chars: 1.5 * MB } }] }, { kind: 'reply', text: 'read it' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'read the big file' }).done;
    expect(outcome.status).toBe('done');

    const stored = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(stored.status).toBe('ok');
    expect((stored.content[0] as { text: string }).text).toHaveLength(1.5 * MB);

    const [callId, sent] = toolResultsIn(provider.requests[1]!.body)[0]!;
    expect(callId).toBe('b1');
    expect(sent.length).toBeLessThan(64_000 + 1_000);
    expect(sent.startsWith('line 1 of a long answer\n')).toBe(true);
    expect(sent).toContain('its text had 1,572,864 characters; only the first 64,000 are above (1,508,864 were left out)');
    expect(sent).toContain('call the tool again asking for less at a time');
    // The conversation reloads with the whole result: the cut is only ever made for the model.
    const again = host.chat.get(outcome.conversationId)!.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect((again.content[0] as { text: string }).text).toHaveLength(1.5 * MB);
  });

  it("a server's maxResultChars in mcp.yaml is its cap; a result within it goes whole", async () => {
    const { host, provider } = await startChatWorld({ servers: { big: entry({ maxResultChars: 2_000 }) }, agents: [agentUsing(['big'])] });
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'c1', name: 'mcp_big_big_text', arguments: { chars: 5_000 } },
          { id: 'c2', name: 'mcp_big_big_text', arguments: { chars: 1_500 } },
        ],
      },
      { kind: 'reply', text: 'ok' },
    );
    const outcome = await host.chat.send({ agentId: 'helper', text: 'two reads' }).done;
    expect(outcome.messages.filter((m): m is ToolMessage => m.role === 'tool').map((m) => m.maxResultChars)).toEqual([2_000, 2_000]);
    const sent = new Map(toolResultsIn(provider.requests[1]!.body));
    expect(sent.get('c1')).toContain('its text had 5,000 characters; only the first 2,000 are above (3,000 were left out)');
    expect(sent.get('c1')!.length).toBeLessThan(2_000 + 1_000);
    expect(sent.get('c2')).toHaveLength(1_500);
    expect(sent.get('c2')).not.toContain('was cut');
  });
});

describe('capResult', () => {
  const text = (t: string): ToolContentItem => ({ type: 'text', text: t });
  const image = (n: number): ToolContentItem => ({ type: 'image', mimeType: 'image/png', artifact: `artifacts/${n}.png`, byteLength: 10 });

  it('keeps items in order up to the cap, never halves a surrogate pair, and always keeps reminders', () => {
    const items = [text('abcd'), text('ef😀gh'), text('more'), { type: 'reminder' as const, text: 'call mcp_release' }];
    const { items: kept, cut } = capResult(items, 7);
    // 'abcd' (4) + 'ef' (2) and the emoji's first half would make 7: the half is dropped.
    expect(kept).toEqual([text('abcd'), text('ef'), { type: 'reminder', text: 'call mcp_release' }]);
    expect(cut).toEqual({ totalChars: 4 + 6 + 4, keptChars: 6, droppedImages: 0 });
    expect(capResult(items, 100)).toEqual({ items });
  });

  it('counts images apart from text: at most MAX_RESULT_IMAGES are sent, the note says how many were left out', () => {
    const items = [text('pictures'), ...Array.from({ length: MAX_RESULT_IMAGES + 3 }, (_, i) => image(i))];
    const { items: kept, cut } = capResult(items, 1_000);
    expect(kept.filter((i) => i.type === 'image')).toHaveLength(MAX_RESULT_IMAGES);
    expect(kept[0]).toEqual(text('pictures'));
    expect(cutNote(cut!)).toContain(`3 more images were left out (at most ${MAX_RESULT_IMAGES} are sent)`);
    expect(cutNote(cut!)).not.toContain('characters');
  });
});
